package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class GpuNeedTest {
  private static final long MIB = 1L << 20;

  @Test
  void sizesReadGAndMAsCardsAreLabelledAndGiBAndMiBInPowersOfTwo() {
    assertEquals(19074L, GpuNeed.parseMiB("20G"));
    assertEquals(19074L, GpuNeed.parseMiB("20GB"));
    assertEquals(19074L, GpuNeed.parseMiB("20g"));
    assertEquals(20480L, GpuNeed.parseMiB("20GiB"));
    assertEquals(20480L, GpuNeed.parseMiB("20Gi"));
    assertEquals(512L, GpuNeed.parseMiB("512MiB"));
    assertEquals(489L, GpuNeed.parseMiB("512M"), "rounded up");
    assertEquals(1430512L, GpuNeed.parseMiB("1.5T"));
    assertEquals(1536L, GpuNeed.parseMiB("1.5GiB"));
  }

  @Test
  void aSizeWithoutAUnitOrOutOfBoundsIsRefusedInOneLineNamingTheOption() {
    assertNull(GpuNeed.parseMiB("20"));
    assertNull(GpuNeed.parseMiB("lots"));
    assertTrue(GpuNeed.sizeProblem("--vram", "20").startsWith("invalid size '20' for --vram; give it with a unit"));
    assertEquals("--vram must be at most 4TiB, not 5T", GpuNeed.sizeProblem("--vram", "5T"));
    assertEquals("--vram must be at least 1M, not 0G", GpuNeed.sizeProblem("--vram", "0G"));
    assertNull(GpuNeed.sizeProblem("--vram", "80G"));
  }

  @Test
  void theLabelOfACardFitsTheMemoryItReports() {
    // what NVML reports for cards sold as 24 GB, 40 GB and 80 GB
    assertTrue(new GpuNeed(GpuNeed.parseMiB("24G"), List.of()).hasMemory(24564 * MIB), "RTX 4090");
    assertTrue(new GpuNeed(GpuNeed.parseMiB("24G"), List.of()).hasMemory(23034 * MIB), "L4");
    assertTrue(new GpuNeed(GpuNeed.parseMiB("40G"), List.of()).hasMemory(40536 * MIB), "A100 40GB");
    assertTrue(new GpuNeed(GpuNeed.parseMiB("80G"), List.of()).hasMemory(81559 * MIB), "H100 80GB");
    assertFalse(new GpuNeed(GpuNeed.parseMiB("80GiB"), List.of()).hasMemory(81559 * MIB), "80 GiB is more than it has");
    assertFalse(new GpuNeed(GpuNeed.parseMiB("40G"), List.of()).hasMemory(24564 * MIB));
  }

  @Test
  void aTypeNamesAGpuByWholeWordsOfItsNameIgnoringCase() {
    GpuNeed a100 = new GpuNeed(0, List.of("a100"));
    assertTrue(a100.ofType("NVIDIA A100-SXM4-80GB"));
    assertFalse(a100.ofType("NVIDIA A1000"));
    assertTrue(new GpuNeed(0, List.of("4090")).ofType("NVIDIA GeForce RTX 4090"));
    assertTrue(new GpuNeed(0, List.of("RTX 4090")).ofType("NVIDIA GeForce RTX 4090"));
    assertFalse(new GpuNeed(0, List.of("RTX 3090")).ofType("NVIDIA GeForce RTX 4090"));
    assertTrue(new GpuNeed(0, List.of("A100", "H100")).ofType("NVIDIA H100 80GB HBM3"), "any of a list");
    assertFalse(new GpuNeed(0, List.of("H100")).ofType(null));
  }

  @Test
  void aNeedSaysWhatItAsksOfEachGpu() {
    assertEquals("with ≥ 37.3 GiB", new GpuNeed(GpuNeed.parseMiB("40G"), List.of()).text());
    assertEquals("of type H100 or A100", new GpuNeed(0, List.of("H100", "A100")).text());
    assertEquals("of type H100 with ≥ 20.0 GiB", new GpuNeed(20480, List.of("H100")).text());
    assertNull(GpuNeed.of(0, List.of()));
  }

  @Test
  void typesAreAListOfWordsAndAnythingElseIsRefused() {
    assertEquals(List.of("A100", "H100"), GpuNeed.parseTypes("--gpu-type", "A100, H100,A100"));
    var e = assertThrows(IllegalArgumentException.class, () -> GpuNeed.parseTypes("--gpu-type", "A100,"));
    assertTrue(e.getMessage().startsWith("invalid GPU type '' for --gpu-type"), e.getMessage());
  }
}

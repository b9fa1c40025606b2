package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuReading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file-driven fake GPUs of DESIGN.md, with a fake /proc in a temp dir. */
class FakeGpuProbeTest {

  private static final long MIB = 1024L * 1024L;
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  @TempDir Path tmp;
  private Path dir;
  private Path proc;
  private FakeGpuProbe probe;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createDirectory(tmp.resolve("fake"));
    proc = Files.createDirectory(tmp.resolve("proc"));
    probe = new FakeGpuProbe(dir, proc, InstantSource.fixed(NOW));
    write("gpus", """
        # index uuid total_mib name
        0 GPU-aaa 81920 NVIDIA H100 80GB HBM3   # trailing comment

        1 GPU-bbb 40960 A100
        """);
  }

  @Test
  void readsGpusSkippingCommentsAndBlankLines() {
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    assertEquals(NOW, reading.at());
    assertEquals(List.of(
        new DeviceReading(0, "GPU-aaa", "NVIDIA H100 80GB HBM3", 81920 * MIB, 0, List.of(), null),
        new DeviceReading(1, "GPU-bbb", "A100", 40960 * MIB, 0, List.of(), null)),
        reading.devices());
  }

  @Test
  void processIsListedOnlyWhileItsPidExists() throws IOException {
    write("procs/GPU-aaa/4242", "100\n");
    assertEquals(List.of(), device(0).processes());
    Files.createDirectory(proc.resolve("4242"));
    assertEquals(List.of(new GpuProcess(4242, 100 * MIB)), device(0).processes());
    assertEquals(100 * MIB, device(0).usedBytes());
    Files.delete(proc.resolve("4242"));
    assertEquals(List.of(), device(0).processes());
    assertEquals(0, device(0).usedBytes());
  }

  @Test
  void usedMemoryIsTheSumOfTheProcessesAndEmptyContentIsUnknown() throws IOException {
    alive(10, 11, 12);
    write("procs/GPU-bbb/12", "250");
    write("procs/GPU-bbb/10", "100\n");
    write("procs/GPU-bbb/11", "");
    DeviceReading gpu = device(1);
    assertEquals(List.of(new GpuProcess(10, 100 * MIB), new GpuProcess(11, -1),
        new GpuProcess(12, 250 * MIB)), gpu.processes());
    assertEquals(350 * MIB, gpu.usedBytes());
    assertEquals(List.of(), device(0).processes());
  }

  @Test
  void ghostIsListedWithoutALiveProcess() throws IOException {
    write("procs/GPU-aaa/999999", "ghost\n");
    DeviceReading gpu = device(0);
    assertEquals(List.of(new GpuProcess(999999, -1)), gpu.processes());
    assertEquals(0, gpu.usedBytes());
  }

  @Test
  void filesThatAreNotPidsAndProcsOfUnknownGpusAreIgnored() throws IOException {
    alive(7);
    write("procs/GPU-aaa/7.tmp", "100");
    write("procs/GPU-aaa/README", "notes");
    write("procs/GPU-zzz/7", "100");
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    assertTrue(reading.devices().stream().allMatch(d -> d.processes().isEmpty()));
  }

  @Test
  void badProcessContentFailsThatDeviceNamingTheFile() throws IOException {
    alive(7);
    write("procs/GPU-aaa/7", "lots");
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    String error = reading.devices().get(0).error();
    assertTrue(error.contains(dir.resolve("procs/GPU-aaa/7").toString()), error);
    assertNull(reading.devices().get(1).error());
  }

  @Test
  void failFileFailsEveryQueryWithItsContent() throws IOException {
    write("fail", "NVML: driver/library version mismatch\n");
    GpuReading reading = probe.read();
    assertFalse(reading.ok());
    assertEquals("NVML: driver/library version mismatch", reading.error());
    assertEquals(List.of(), reading.devices());
    assertEquals(NOW, reading.at());
  }

  @Test
  void emptyFailFileStillFails() throws IOException {
    write("fail", "");
    GpuReading reading = probe.read();
    assertFalse(reading.ok());
    assertTrue(reading.error().contains(dir.resolve("fail").toString()), reading.error());
  }

  @Test
  void failUuidFileFailsThatDeviceOnly() throws IOException {
    write("fail-GPU-bbb", "GPU is lost");
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    assertNull(reading.devices().get(0).error());
    assertEquals(DeviceReading.failed(1, "GPU-bbb", "GPU is lost"), reading.devices().get(1));
  }

  @Test
  void malformedLineFailsTheReadingNamingFileAndLine() throws IOException {
    write("gpus", "0 GPU-aaa 81920 H100\n\n1 GPU-bbb lots A100\n");
    GpuReading reading = probe.read();
    assertFalse(reading.ok());
    assertTrue(reading.error().contains(dir.resolve("gpus") + " line 3"), reading.error());
  }

  @Test
  void lineWithoutANameIsMalformed() throws IOException {
    write("gpus", "0 GPU-aaa 81920\n");
    String error = probe.read().error();
    assertTrue(error.contains("line 1") && error.contains("index uuid total_mib name"), error);
  }

  @Test
  void repeatedIndexOrUuidIsMalformed() throws IOException {
    write("gpus", "0 GPU-aaa 1 A\n0 GPU-bbb 1 B\n");
    assertTrue(probe.read().error().contains("line 2: GPU index 0 repeats"));
    write("gpus", "0 GPU-aaa 1 A\n1 GPU-aaa 1 B\n");
    assertTrue(probe.read().error().contains("line 2: GPU uuid GPU-aaa repeats"));
  }

  @Test
  void missingDirectoryOrGpuListFailsTheReading() throws IOException {
    FakeGpuProbe nowhere = new FakeGpuProbe(tmp.resolve("nowhere"), proc);
    GpuReading reading = nowhere.read();
    assertFalse(reading.ok());
    assertTrue(reading.error().contains(tmp.resolve("nowhere") + " does not exist"));
    Files.delete(dir.resolve("gpus"));
    assertTrue(probe.read().error().contains(dir.resolve("gpus") + " is missing"));
  }

  @Test
  void everyReadSeesTheFilesAsTheyAreNow() throws IOException {
    assertEquals(2, probe.read().devices().size());
    write("gpus", "3 GPU-ccc 1024 Small\n");
    assertEquals(List.of(new DeviceReading(3, "GPU-ccc", "Small", 1024 * MIB, 0, List.of(), null)),
        probe.read().devices());
    write("fail", "gone");
    assertFalse(probe.read().ok());
    Files.delete(dir.resolve("fail"));
    assertTrue(probe.read().ok());
  }

  @Test
  void jobOpeningAContextAsTheDesignShows() throws IOException {
    alive(31337);
    write("procs/GPU-aaa/31337", "100\n");  // echo 100 > "$GQ_FAKE_NVML/procs/$u/$$"
    assertEquals(List.of(new GpuProcess(31337, 100 * MIB)), device(0).processes());
  }

  @Test
  void saysItIsFake() {
    assertTrue(probe.fake());
    assertEquals("fake GPUs from " + dir, probe.describe());
  }

  @Test
  void defaultProcRootIsTheRealProc() throws IOException {
    long self = ProcessHandle.current().pid();
    write("procs/GPU-aaa/" + self, "5");
    assertEquals(List.of(new GpuProcess(self, 5 * MIB)),
        new FakeGpuProbe(dir).read().devices().get(0).processes());
  }

  private DeviceReading device(int position) {
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    return reading.devices().get(position);
  }

  private void alive(long... pids) throws IOException {
    for (long pid : pids) Files.createDirectories(proc.resolve(Long.toString(pid)));
  }

  @Test
  void figuresFileGivesEachFigureAndTheRestStayUnknown() throws IOException {
    write("figures/GPU-aaa", "util=37 mem_util=12 temp=61\npower=210 power_limit=700\n");
    write("figures/GPU-bbb", "temp=40  # only the temperature\n");
    GpuReading reading = probe.read();
    assertEquals(new GpuFigures(37, 12, 61, 210, 700), reading.devices().get(0).figures());
    assertEquals(new GpuFigures(null, null, 40, null, null), reading.devices().get(1).figures());
  }

  @Test
  void withoutAFiguresFileEveryFigureIsUnknown() {
    assertEquals(GpuFigures.NONE, probe.read().devices().get(0).figures());
  }

  @Test
  void healthFileMakesTheGpuUnwellInEachWay() throws IOException {
    write("health/GPU-aaa", "xid 79\nxid 13\necc 3\nretired_pending\nremap_failed  # all at once\n");
    assertEquals(new GpuHealth(List.of(79, 13), 3L, true, true, false), probe.read().devices().get(0).health());
    assertEquals(GpuHealth.NONE, probe.read().devices().get(1).health());
  }

  @Test
  void lostFailsTheDeviceAsAGpuThatFellOffTheBus() throws IOException {
    write("health/GPU-bbb", "lost\n");
    DeviceReading lost = probe.read().devices().get(1);
    assertTrue(lost.health().lost());
    assertTrue(lost.error().contains("NVML_ERROR_GPU_IS_LOST"), lost.error());
  }

  @Test
  void badFiguresOrHealthFailThatDeviceNamingTheFile() throws IOException {
    write("figures/GPU-aaa", "util=hot");
    write("health/GPU-bbb", "xid seventy-nine");
    GpuReading reading = probe.read();
    assertTrue(reading.devices().get(0).error().contains("figures/GPU-aaa"), reading.devices().get(0).error());
    assertTrue(reading.devices().get(1).error().contains("health/GPU-bbb"), reading.devices().get(1).error());
  }

  private void write(String relative, String content) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }
}

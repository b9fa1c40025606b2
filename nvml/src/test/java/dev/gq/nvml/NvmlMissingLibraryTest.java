package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.gpu.GpuReading;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** A machine without the NVIDIA library: clear one-line errors, and a probe that never throws. */
class NvmlMissingLibraryTest {

  private static final String MISSING = "/nonexistent/gq-test/libnvidia-ml.so.1";
  private static final String EXPECTED = "NVIDIA NVML (" + MISSING + ") is not available: no NVIDIA"
      + " driver on this machine? (" + MISSING + ": cannot open shared object file: No such file"
      + " or directory)";

  @Test
  void facadeFailsWithOneClearLine() {
    Nvml nvml = new Nvml(MISSING);
    NvmlException e = assertThrows(NvmlException.class, nvml::init);
    assertEquals(EXPECTED, e.getMessage());
    assertEquals("NVML_ERROR_LIBRARY_NOT_FOUND", e.codeName());
    assertFalse(nvml.initialized());
    assertThrows(NvmlException.class, nvml::deviceCount);
    nvml.close();
  }

  @Test
  void probeGivesAFailedReadingNeverAnException() {
    Instant now = Instant.parse("2026-01-02T03:04:05Z");
    try (NvmlGpuProbe probe = new NvmlGpuProbe(new Nvml(MISSING), InstantSource.fixed(now))) {
      GpuReading reading = probe.read();
      assertFalse(reading.ok());
      assertEquals(now, reading.at());
      assertEquals(EXPECTED, reading.error());
      assertEquals(EXPECTED, probe.describe());
      assertEquals(EXPECTED, probe.unavailableReason());
      assertFalse(probe.fake());
      assertTrue(reading.devices().isEmpty());
    }
  }

  @Test
  void jnaMessageOnSeveralLinesBecomesTheDistinctReasons() {
    String jna = """
        Unable to load library 'libnvidia-ml.so.1':
        libnvidia-ml.so.1: cannot open shared object file: No such file or directory
        libnvidia-ml.so.1: cannot open shared object file: No such file or directory
        Native library (linux-x86-64/libnvidia-ml.so.1) not found in resource path (a.jar:b.jar)
        """;
    assertEquals("NVIDIA NVML (libnvidia-ml.so.1) is not available: no NVIDIA driver on this"
        + " machine? (libnvidia-ml.so.1: cannot open shared object file: No such file or directory)",
        Nvml.unavailable("libnvidia-ml.so.1", new UnsatisfiedLinkError(jna)));
  }
}

package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.NativeLibrary;
import dev.gq.core.gpu.GpuReading;
import dev.gq.nvml.raw.NvmlLibrary;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The binding against the driver's real {@code libnvidia-ml.so.1} (Debian's {@code libnvidia-ml1},
 * which {@code .ci/run} installs). Without a GPU and its kernel driver, that library loads and
 * answers {@code NVML_ERROR_DRIVER_NOT_LOADED}, which gq must turn into one clear line; on a machine
 * with the driver it must read every device. Skipped, with the reason printed, where the library
 * is not installed.
 */
class NvmlRealLibraryTest {

  private static final String NOT_LOADED =
      "nvmlInit_v2 failed: NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)";

  @BeforeAll
  static void requireTheLibrary() {
    try (Nvml nvml = new Nvml()) {
      nvml.init();
    } catch (NvmlException e) {
      if (e.codeName().equals("NVML_ERROR_LIBRARY_NOT_FOUND")) {
        String reason = "libnvidia-ml.so.1 is not installed (Debian: libnvidia-ml1 in non-free)";
        System.out.println("skipping the real NVML library tests: " + reason);
        Assumptions.abort(reason);
      }
    }
  }

  /**
   * Whether the NVIDIA kernel module is loaded: it publishes its version under /proc. (The device
   * node /dev/nvidiactl is no sign: the library itself creates it when run as root.)
   */
  private static boolean driverLoaded() {
    return Files.exists(Path.of("/proc/driver/nvidia/version"));
  }

  @Test
  void everyFunctionTheBindingCallsExistsInTheRealLibrary() {
    NativeLibrary real = NativeLibrary.getInstance(NvmlLibrary.SONAME);
    int checked = 0;
    for (Method m : NvmlLibrary.class.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers())) continue;
      real.getFunction(m.getName());  // throws UnsatisfiedLinkError when the symbol is missing
      checked++;
    }
    assertEquals(21, checked, "functions of the binding checked against the real library");
  }

  @Test
  void withoutTheDriverInitFailsWithOneLineNamingIt() {
    Assumptions.assumeFalse(driverLoaded(), "an NVIDIA driver is loaded here");
    try (Nvml nvml = new Nvml()) {
      NvmlException e = assertThrows(NvmlException.class, nvml::init);
      assertEquals("NVML_ERROR_DRIVER_NOT_LOADED", e.codeName());
      assertEquals(NOT_LOADED, e.getMessage());
      assertFalse(nvml.initialized());
      assertThrows(NvmlException.class, nvml::deviceCount);
    }
  }

  @Test
  void withoutTheDriverTheProbeReportsTheReasonAndNoDevices() {
    Assumptions.assumeFalse(driverLoaded(), "an NVIDIA driver is loaded here");
    Instant now = Instant.parse("2026-11-30T12:00:00Z");
    try (NvmlGpuProbe probe = new NvmlGpuProbe(new Nvml(), InstantSource.fixed(now))) {
      GpuReading reading = probe.read();
      assertFalse(reading.ok());
      assertEquals(now, reading.at());
      assertTrue(reading.devices().isEmpty());
      assertEquals(NOT_LOADED, reading.error());
      assertEquals(NOT_LOADED, probe.unavailableReason());
      assertFalse(probe.fake());
    }
  }

  @Test
  void withTheDriverEveryDeviceIsRead() throws NvmlException {
    Assumptions.assumeTrue(driverLoaded(), "no NVIDIA driver loaded here");
    try (Nvml nvml = new Nvml()) {
      nvml.init();
      int count = nvml.deviceCount();
      assertTrue(count > 0, "the driver is loaded but lists no device");
      for (int i = 0; i < count; i++) {
        NvmlDevice device = nvml.device(i);
        assertTrue(device.uuid().startsWith("GPU-"), device.uuid());
        assertTrue(device.memory().totalBytes() > 0);
        device.computeProcesses();
        device.figures();
        device.uncorrectableEccErrors();
        device.retiredPagesPending();
        device.rowRemapFailed();
      }
    }
  }
}

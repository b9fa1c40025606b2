package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.gpu.GpuProbe;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuProbesTest {

  @Test
  void fakeNvmlVariableSelectsTheFakeProbe() {
    GpuProbe probe = GpuProbes.fromEnvironment(Map.of("GQ_FAKE_NVML", "/tmp/gq-fake"));
    assertInstanceOf(FakeGpuProbe.class, probe);
    assertTrue(probe.fake());
    assertEquals("fake GPUs from /tmp/gq-fake", probe.describe());
  }

  @Test
  void relativeFakeDirectoryIsMadeAbsolute() {
    GpuProbe probe = GpuProbes.fromEnvironment(Map.of("GQ_FAKE_NVML", "fake-gpus"));
    assertEquals("fake GPUs from " + Path.of("fake-gpus").toAbsolutePath(), probe.describe());
  }

  @Test
  void withoutTheVariableOrWithItEmptyNvmlIsUsed() {
    assertInstanceOf(NvmlGpuProbe.class, GpuProbes.fromEnvironment(Map.of()));
    GpuProbe probe = GpuProbes.fromEnvironment(Map.of("GQ_FAKE_NVML", ""));
    assertInstanceOf(NvmlGpuProbe.class, probe);
    assertFalse(probe.fake());
  }
}

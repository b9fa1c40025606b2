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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NVML probe against the fake libnvidia-ml.so.1: readings, per-device and global failures. */
class NvmlGpuProbeTest {

  private static final long MIB = 1024L * 1024L;
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final InstantSource CLOCK = InstantSource.fixed(NOW);
  private static final String UUID_1 = "GPU-fa4e1111-1111-4111-8111-111111111111";

  private FakeNvmlLibrary.Control control;
  private NvmlGpuProbe probe;

  @BeforeEach
  void setUp() {
    control = FakeNvmlLibrary.control();
    control.fake_nvml_reset();
    probe = new NvmlGpuProbe(new Nvml(FakeNvmlLibrary.path().toString()), CLOCK);
  }

  @AfterEach
  void tearDown() {
    if (probe != null) probe.close();
  }

  @Test
  void readsEveryDeviceWithMemoryInBytes() {
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    assertEquals(NOW, reading.at());
    assertEquals(2, reading.devices().size());
    DeviceReading first = reading.devices().get(0);
    assertEquals(new DeviceReading(0, "GPU-fa4e0000-0000-4000-8000-000000000000",
        "Fake GPU Alpha", 81920 * MIB, 1024 * MIB,
        List.of(new GpuProcess(4242, 1024 * MIB), new GpuProcess(4343, -1)), null,
        new GpuFigures(37, 12, 61, 210, 700), new GpuHealth(List.of(), 0L, false, false, false)), first);
    DeviceReading second = reading.devices().get(1);
    assertEquals(UUID_1, second.uuid());
    assertEquals(List.of(), second.processes());
    assertNull(second.error());
    assertEquals("NVML (driver 999.12.34)", probe.describe());
    assertFalse(probe.fake());
  }

  @Test
  void aDeviceThatGivesNoFigureShowsEachUnknown() {
    DeviceReading second = probe.read().devices().get(1);
    assertEquals(GpuFigures.NONE, second.figures());
  }

  @Test
  void criticalXidErrorsComeOnTheirDeviceWithEveryReadingForTheRetentionTime() {
    Instant[] now = {NOW};
    probe.close();
    probe = new NvmlGpuProbe(new Nvml(FakeNvmlLibrary.path().toString()), () -> now[0]);
    probe.read();  // registers the devices with the event set
    control.fake_nvml_xid(1, 79);
    control.fake_nvml_xid(1, 13);
    GpuReading reading = probe.read();
    assertEquals(List.of(), reading.devices().get(0).health().xids());
    assertEquals(List.of(79, 13), reading.devices().get(1).health().xids());
    now[0] = NOW.plus(NvmlGpuProbe.XID_RETENTION);
    assertEquals(List.of(79, 13), probe.read().devices().get(1).health().xids(), "another reader cannot swallow it");
    now[0] = now[0].plusSeconds(1);
    assertEquals(List.of(), probe.read().devices().get(1).health().xids());
  }

  @Test
  void eccRetiredPagesAndRemapFailuresAreRead() {
    control.fake_nvml_health(0, 3, 1, 1, 0);
    assertEquals(new GpuHealth(List.of(), 3L, true, true, false), probe.read().devices().get(0).health());
  }

  @Test
  void aGpuThatFellOffTheBusFailsWithItsHealthSayingSo() {
    probe.read();
    control.fake_nvml_health(1, 0, 0, 0, 1);
    DeviceReading lost = probe.read().devices().get(1);
    assertEquals(UUID_1, lost.uuid());
    assertTrue(lost.health().lost());
    assertTrue(lost.error().contains("NVML_ERROR_GPU_IS_LOST"), lost.error());
  }

  @Test
  void theEventSetIsFreedWhenNvmlShutsDown() {
    probe.read();
    assertEquals(1, control.fake_nvml_event_sets_open());
    probe.close();
    assertEquals(0, control.fake_nvml_event_sets_open());
  }

  @Test
  void oneFailingDeviceFailsAlone() {
    control.fake_nvml_fail("nvmlDeviceGetComputeRunningProcesses_v3", 1, 15);
    GpuReading reading = probe.read();
    assertTrue(reading.ok(), reading.error());
    assertNull(reading.devices().get(0).error());
    DeviceReading failed = reading.devices().get(1);
    assertEquals(UUID_1, failed.uuid());
    assertEquals(List.of(), failed.processes());
    assertEquals("nvmlDeviceGetComputeRunningProcesses_v3 failed: NVML_ERROR_GPU_IS_LOST"
        + " (GPU is lost)", failed.error());
  }

  @Test
  void deviceWhoseUuidFailsKeepsTheUuidLastSeenAtItsIndex() {
    probe.read();
    control.fake_nvml_fail("nvmlDeviceGetUUID", 1, 15);
    DeviceReading failed = probe.read().devices().get(1);
    assertEquals(UUID_1, failed.uuid());
    assertTrue(failed.error().contains("NVML_ERROR_GPU_IS_LOST"), failed.error());
  }

  @Test
  void deviceNeverReadGetsAPlaceholderUuid() {
    control.fake_nvml_fail("nvmlDeviceGetHandleByIndex_v2", 1, 15);
    DeviceReading failed = probe.read().devices().get(1);
    assertEquals("unknown-gpu-1", failed.uuid());
    assertEquals(1, failed.index());
    assertTrue(failed.error().startsWith("nvmlDeviceGetHandleByIndex_v2 failed"), failed.error());
  }

  @Test
  void failedInitFailsTheReadingAndIsTriedAgainLater() {
    control.fake_nvml_fail("nvmlInit_v2", -1, 9);
    GpuReading reading = probe.read();
    assertFalse(reading.ok());
    assertEquals(List.of(), reading.devices());
    assertEquals("nvmlInit_v2 failed: NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)",
        reading.error());
    assertEquals(reading.error(), probe.describe());
    assertEquals(reading.error(), probe.unavailableReason());
    control.fake_nvml_fail("nvmlInit_v2", -1, 0);
    assertTrue(probe.read().ok());
    assertNull(probe.unavailableReason());
  }

  @Test
  void globalFailureShutsNvmlDownSoTheNextReadStartsOver() {
    assertTrue(probe.read().ok());
    control.fake_nvml_fail("nvmlDeviceGetCount_v2", -1, 15);
    GpuReading reading = probe.read();
    assertEquals("nvmlDeviceGetCount_v2 failed: NVML_ERROR_GPU_IS_LOST (GPU is lost)",
        reading.error());
    assertEquals(0, control.fake_nvml_init_count());
    control.fake_nvml_fail("nvmlDeviceGetCount_v2", -1, 0);
    assertTrue(probe.read().ok());
    assertEquals(1, control.fake_nvml_init_count());
  }

  @Test
  void closeShutsNvmlDown() {
    probe.read();
    probe.close();
    assertEquals(0, control.fake_nvml_init_count());
  }

  @Test
  void missingLibraryIsSoughtAgainOnlyAfterTheRetryInterval(@TempDir Path dir) throws IOException {
    Path later = dir.resolve("libnvidia-ml.so.1");
    Instant[] now = {NOW};
    InstantSource clock = () -> now[0];
    try (NvmlGpuProbe probeLater = new NvmlGpuProbe(new Nvml(later.toString()), clock)) {
      String missing = probeLater.read().error();
      assertTrue(missing.contains("cannot open shared object file"), missing);
      Files.copy(FakeNvmlLibrary.path(), later);
      now[0] = NOW.plus(NvmlGpuProbe.LIBRARY_RETRY).minusMillis(1);
      assertEquals(missing, probeLater.read().error());
      now[0] = NOW.plus(NvmlGpuProbe.LIBRARY_RETRY);
      GpuReading reading = probeLater.read();
      assertTrue(reading.ok(), reading.error());
      assertEquals(2, reading.devices().size());
    }
  }
}

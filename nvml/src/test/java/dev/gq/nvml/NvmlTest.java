package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.nvml.raw.NvmlLibrary.nvmlProcessInfo_t;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The facade and the raw binding against the fake libnvidia-ml.so.1 built from C. */
class NvmlTest {

  private static final long MIB = 1024L * 1024L;
  private static final String UUID_0 = "GPU-fa4e0000-0000-4000-8000-000000000000";
  private static final String UUID_1 = "GPU-fa4e1111-1111-4111-8111-111111111111";

  private FakeNvmlLibrary.Control control;
  private Nvml nvml;

  @BeforeEach
  void setUp() {
    control = FakeNvmlLibrary.control();
    control.fake_nvml_reset();
    nvml = new Nvml(FakeNvmlLibrary.path().toString());
  }

  @AfterEach
  void tearDown() {
    if (nvml != null) nvml.close();
  }

  @Test
  void processInfoStructHasTheCLayout() {
    assertEquals(24, new nvmlProcessInfo_t().size());
    assertEquals(24, control.fake_nvml_sizeof_process_info());
  }

  @Test
  void readsDriverDevicesNamesAndMemory() throws NvmlException {
    nvml.init();
    assertEquals("999.12.34", nvml.driverVersion());
    assertEquals(2, nvml.deviceCount());
    NvmlDevice first = nvml.device(0);
    assertEquals(0, first.index());
    assertEquals(UUID_0, first.uuid());
    assertEquals("Fake GPU Alpha", first.name());
    assertEquals(new NvmlMemory(81920 * MIB, 80896 * MIB, 1024 * MIB), first.memory());
    assertEquals(UUID_1, nvml.device(1).uuid());
  }

  @Test
  void computeProcessesMapUnavailableMemoryToMinusOne() throws NvmlException {
    nvml.init();
    assertEquals(List.of(new NvmlProcess(4242, 1024 * MIB), new NvmlProcess(4343, -1)),
        nvml.device(0).computeProcesses());
    assertEquals(List.of(), nvml.device(1).computeProcesses());
  }

  @Test
  void processesStartingBetweenTheTwoCallsFitInTheSpareEntries() throws NvmlException {
    nvml.init();
    control.fake_nvml_grow(3, 0);
    assertEquals(5, nvml.device(0).computeProcesses().size());
  }

  @Test
  void manyProcessesStartingBetweenTheCallsAreAskedForAgain() throws NvmlException {
    nvml.init();
    control.fake_nvml_grow(NvmlDevice.SPARE_PROCESS_ENTRIES + 12, 0);
    List<NvmlProcess> processes = nvml.device(0).computeProcesses();
    assertEquals(NvmlDevice.SPARE_PROCESS_ENTRIES + 14, processes.size());
    assertEquals(new NvmlProcess(5002, MIB), processes.get(2));
  }

  @Test
  void processCountThatNeverSettlesFailsInsteadOfLooping() throws NvmlException {
    nvml.init();
    control.fake_nvml_grow(NvmlDevice.SPARE_PROCESS_ENTRIES + 1, 1);
    NvmlException e = assertThrows(NvmlException.class, () -> nvml.device(0).computeProcesses());
    assertEquals("NVML_ERROR_INSUFFICIENT_SIZE", e.codeName());
  }

  @Test
  void failureNamesTheFunctionTheCodeAndTheDriverText() throws NvmlException {
    nvml.init();
    control.fake_nvml_fail("nvmlDeviceGetUUID", 1, 15);
    assertEquals(UUID_0, nvml.device(0).uuid());
    NvmlException e = assertThrows(NvmlException.class, () -> nvml.device(1).uuid());
    assertEquals("nvmlDeviceGetUUID failed: NVML_ERROR_GPU_IS_LOST (GPU is lost)", e.getMessage());
    assertEquals("nvmlDeviceGetUUID", e.function());
    assertEquals(15, e.code());
  }

  @Test
  void unknownCodeStillGetsAName() throws NvmlException {
    nvml.init();
    control.fake_nvml_fail("nvmlDeviceGetName", 0, 4711);
    NvmlException e = assertThrows(NvmlException.class, () -> nvml.device(0).name());
    assertEquals("nvmlDeviceGetName failed: NVML_ERROR_4711 (Unknown Error)", e.getMessage());
  }

  @Test
  void initIsDoneOnceAndShutdownUndoesIt() throws NvmlException {
    nvml.init();
    nvml.init();
    assertEquals(1, control.fake_nvml_init_count());
    nvml.shutdown();
    assertFalse(nvml.initialized());
    assertEquals(0, control.fake_nvml_init_count());
    NvmlException e = assertThrows(NvmlException.class, nvml::deviceCount);
    assertEquals("NVML_ERROR_UNINITIALIZED", e.codeName());
  }

  @Test
  void failedInitIsTriedAgain() throws NvmlException {
    control.fake_nvml_fail("nvmlInit_v2", -1, 9);
    NvmlException e = assertThrows(NvmlException.class, nvml::init);
    assertEquals("nvmlInit_v2 failed: NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)",
        e.getMessage());
    control.fake_nvml_fail("nvmlInit_v2", -1, 0);
    nvml.init();
    assertTrue(nvml.initialized());
  }
}

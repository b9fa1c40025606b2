package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Structure;
import dev.gq.nvml.raw.NvmlLibrary;
import dev.gq.nvml.raw.NvmlLibrary.nvmlEventData_t;
import dev.gq.nvml.raw.NvmlLibrary.nvmlMemory_t;
import dev.gq.nvml.raw.NvmlLibrary.nvmlProcessInfo_t;
import dev.gq.nvml.raw.NvmlLibrary.nvmlUtilization_t;
import dev.gq.nvml.raw.NvmlReturn;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The binding's structs and constants have the layout the official {@code nvml.h} gives them, as
 * the C compiler lays them out in the fake library built against that header: a Java field that
 * drifts from the driver's struct fails here instead of reading garbage on a real GPU.
 */
class NvmlLayoutTest {

  private static FakeNvmlLibrary.Control control;

  @BeforeAll
  static void load() {
    control = FakeNvmlLibrary.control();
    if (control.fake_nvml_official_header() != 1) {
      String reason = "nvml.h not found (install libnvidia-ml-dev): struct layouts not checked";
      System.out.println("skipping NVML layout tests: " + reason);
      Assumptions.abort(reason);
    }
  }

  @Test
  void processInfoMatchesTheHeader() {
    Offsets info = new Offsets(new nvmlProcessInfo_t());
    assertEquals(c("sizeof nvmlProcessInfo_t"), info.struct.size());
    for (String field : new String[] {"pid", "usedGpuMemory", "gpuInstanceId", "computeInstanceId"}) {
      assertEquals(c("offsetof nvmlProcessInfo_t." + field), info.offset(field), field);
    }
  }

  @Test
  void memoryMatchesTheHeader() {
    Offsets memory = new Offsets(new nvmlMemory_t());
    assertEquals(c("sizeof nvmlMemory_t"), memory.struct.size());
    for (String field : new String[] {"total", "free", "used"}) {
      assertEquals(c("offsetof nvmlMemory_t." + field), memory.offset(field), field);
    }
  }

  @Test
  void utilisationMatchesTheHeader() {
    Offsets util = new Offsets(new nvmlUtilization_t());
    assertEquals(c("sizeof nvmlUtilization_t"), util.struct.size());
    for (String field : new String[] {"gpu", "memory"}) {
      assertEquals(c("offsetof nvmlUtilization_t." + field), util.offset(field), field);
    }
  }

  @Test
  void eventDataMatchesTheHeader() {
    Offsets data = new Offsets(new nvmlEventData_t());
    assertEquals(c("sizeof nvmlEventData_t"), data.struct.size());
    for (String field : new String[] {"device", "eventType", "eventData", "gpuInstanceId", "computeInstanceId"}) {
      assertEquals(c("offsetof nvmlEventData_t." + field), data.offset(field), field);
    }
  }

  @Test
  void healthAndFigureConstantsMatchTheHeader() {
    assertEquals(c("NVML_TEMPERATURE_GPU"), NvmlLibrary.NVML_TEMPERATURE_GPU);
    assertEquals(c("NVML_MEMORY_ERROR_TYPE_UNCORRECTED"), NvmlLibrary.NVML_MEMORY_ERROR_TYPE_UNCORRECTED);
    assertEquals(c("NVML_VOLATILE_ECC"), NvmlLibrary.NVML_VOLATILE_ECC);
    assertEquals(c("NVML_FEATURE_ENABLED"), NvmlLibrary.NVML_FEATURE_ENABLED);
    assertEquals(c("nvmlEventTypeXidCriticalError"), NvmlLibrary.nvmlEventTypeXidCriticalError);
    assertEquals(c("NVML_ERROR_NOT_SUPPORTED"), NvmlReturn.NVML_ERROR_NOT_SUPPORTED.code());
    assertEquals(c("NVML_ERROR_TIMEOUT"), NvmlReturn.NVML_ERROR_TIMEOUT.code());
    assertEquals(c("NVML_ERROR_GPU_IS_LOST"), NvmlReturn.NVML_ERROR_GPU_IS_LOST.code());
  }

  @Test
  void bufferSizesAndSentinelMatchTheHeader() {
    assertEquals(c("NVML_DEVICE_UUID_V2_BUFFER_SIZE"), NvmlLibrary.DEVICE_STRING_BUFFER_SIZE);
    assertEquals(c("NVML_DEVICE_NAME_V2_BUFFER_SIZE"), NvmlLibrary.DEVICE_STRING_BUFFER_SIZE);
    assertEquals(c("NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE"),
        NvmlLibrary.DRIVER_VERSION_BUFFER_SIZE);
    assertEquals(c("NVML_VALUE_NOT_AVAILABLE"), NvmlLibrary.NVML_VALUE_NOT_AVAILABLE);
  }

  private static long c(String what) {
    long value = control.fake_nvml_layout(what);
    assertEquals(false, value == -1 && !what.equals("NVML_VALUE_NOT_AVAILABLE"),
        "the fake library does not know " + what);
    return value;
  }

  /** Reads JNA's computed field offsets, which {@link Structure} keeps protected. */
  private static final class Offsets {
    final Structure struct;

    Offsets(Structure struct) {
      this.struct = struct;
    }

    long offset(String field) {
      try {
        var method = Structure.class.getDeclaredMethod("fieldOffset", String.class);
        method.setAccessible(true);
        return (int) method.invoke(struct, field);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("cannot read JNA's offset of " + field, e);
      }
    }
  }
}

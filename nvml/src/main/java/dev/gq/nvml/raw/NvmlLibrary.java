package dev.gq.nvml.raw;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The raw JNA binding to the few NVML functions gq needs, C names and C structs verbatim. Every
 * function returns an {@code nvmlReturn_t} (see {@link NvmlReturn}); a device is an opaque
 * {@code nvmlDevice_t} pointer. Nothing here loads the library: {@code dev.gq.nvml.Nvml} does,
 * lazily, and is the only caller.
 */
public interface NvmlLibrary extends Library {

  /** The driver installs only this versioned name; the bare {@code .so} comes with -dev packages. */
  String SONAME = "libnvidia-ml.so.1";

  /** NVML_DEVICE_UUID_V2_BUFFER_SIZE and NVML_DEVICE_NAME_V2_BUFFER_SIZE. */
  int DEVICE_STRING_BUFFER_SIZE = 96;

  /** NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE. */
  int DRIVER_VERSION_BUFFER_SIZE = 80;

  /** NVML_VALUE_NOT_AVAILABLE as an unsigned long long: all ones. */
  long NVML_VALUE_NOT_AVAILABLE = -1L;

  /** NVML_TEMPERATURE_GPU: the sensor on the GPU die. */
  int NVML_TEMPERATURE_GPU = 0;

  /** NVML_MEMORY_ERROR_TYPE_UNCORRECTED. */
  int NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1;

  /** NVML_VOLATILE_ECC: counts since the driver loaded. */
  int NVML_VOLATILE_ECC = 0;

  /** NVML_FEATURE_ENABLED of {@code nvmlEnableState_t}. */
  int NVML_FEATURE_ENABLED = 1;

  /** nvmlEventTypeXidCriticalError. */
  long nvmlEventTypeXidCriticalError = 0x8L;

  int nvmlInit_v2();

  int nvmlShutdown();

  String nvmlErrorString(int result);

  int nvmlSystemGetDriverVersion(byte[] version, int length);

  int nvmlDeviceGetCount_v2(IntByReference deviceCount);

  int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

  int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

  int nvmlDeviceGetName(Pointer device, byte[] name, int length);

  int nvmlDeviceGetMemoryInfo(Pointer device, nvmlMemory_t memory);

  /** {@code infos} is null for the size query, else an array made by {@code Structure.toArray}. */
  int nvmlDeviceGetComputeRunningProcesses_v3(
      Pointer device, IntByReference infoCount, nvmlProcessInfo_t[] infos);

  int nvmlDeviceGetUtilizationRates(Pointer device, nvmlUtilization_t utilization);

  int nvmlDeviceGetTemperature(Pointer device, int sensorType, IntByReference temp);

  /** Milliwatts. */
  int nvmlDeviceGetPowerUsage(Pointer device, IntByReference power);

  /** Milliwatts. */
  int nvmlDeviceGetEnforcedPowerLimit(Pointer device, IntByReference limit);

  int nvmlDeviceGetTotalEccErrors(Pointer device, int errorType, int counterType, LongByReference eccCounts);

  int nvmlDeviceGetRetiredPagesPendingStatus(Pointer device, IntByReference isPending);

  int nvmlDeviceGetRemappedRows(Pointer device, IntByReference corrRows, IntByReference uncRows,
      IntByReference isPending, IntByReference failureOccurred);

  int nvmlEventSetCreate(PointerByReference set);

  int nvmlDeviceRegisterEvents(Pointer device, long eventTypes, Pointer set);

  /** {@code timeoutms} 0 answers at once: NVML_ERROR_TIMEOUT when no event waits. */
  int nvmlEventSetWait_v2(Pointer set, nvmlEventData_t data, int timeoutms);

  int nvmlEventSetFree(Pointer set);

  /** {@code nvmlUtilization_t}: percent over the driver's last sample period. */
  @Structure.FieldOrder({"gpu", "memory"})
  class nvmlUtilization_t extends Structure {
    public int gpu;
    public int memory;
  }

  /**
   * {@code nvmlEventData_t}, 32 bytes: the device, the event type, its data (the Xid for
   * nvmlEventTypeXidCriticalError) and the MIG instance ids (0xFFFFFFFF outside MIG).
   */
  @Structure.FieldOrder({"device", "eventType", "eventData", "gpuInstanceId", "computeInstanceId"})
  class nvmlEventData_t extends Structure {
    public Pointer device;
    public long eventType;
    public long eventData;
    public int gpuInstanceId;
    public int computeInstanceId;
  }

  /** {@code nvmlMemory_t}: bytes. */
  @Structure.FieldOrder({"total", "free", "used"})
  class nvmlMemory_t extends Structure {
    public long total;
    public long free;
    public long used;
  }

  /**
   * {@code nvmlProcessInfo_t} (= {@code nvmlProcessInfo_v2_t}), 24 bytes: JNA pads 4 bytes after
   * {@code pid} as C does. The instance ids are 0xFFFFFFFF outside MIG.
   */
  @Structure.FieldOrder({"pid", "usedGpuMemory", "gpuInstanceId", "computeInstanceId"})
  class nvmlProcessInfo_t extends Structure {
    public int pid;
    public long usedGpuMemory;
    public int gpuInstanceId;
    public int computeInstanceId;
  }
}

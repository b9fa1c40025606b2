package dev.gq.nvml;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.nvml.raw.NvmlLibrary;
import dev.gq.nvml.raw.NvmlLibrary.nvmlMemory_t;
import dev.gq.nvml.raw.NvmlLibrary.nvmlProcessInfo_t;
import dev.gq.nvml.raw.NvmlLibrary.nvmlUtilization_t;
import dev.gq.nvml.raw.NvmlReturn;
import java.util.ArrayList;
import java.util.List;

/**
 * One device handle from {@link Nvml#device(int)}: valid while NVML stays initialised. Each
 * method is one query and throws {@link NvmlException} when the driver refuses it, so a caller
 * can fail this device alone. Thread-safe as NVML is.
 */
public final class NvmlDevice {

  /** Processes may start between the size query and the fetch: room for a few more. */
  static final int SPARE_PROCESS_ENTRIES = 8;
  private static final int PROCESS_QUERY_ATTEMPTS = 4;

  private final NvmlLibrary lib;
  private final int index;
  private final Pointer handle;

  NvmlDevice(NvmlLibrary lib, int index, Pointer handle) {
    this.lib = lib;
    this.index = index;
    this.handle = handle;
  }

  public int index() {
    return index;
  }

  /** The device UUID, e.g. {@code GPU-8e1d…}: the GPU's identity for gq. */
  public String uuid() throws NvmlException {
    byte[] buf = new byte[NvmlLibrary.DEVICE_STRING_BUFFER_SIZE];
    NvmlCalls.check(lib, "nvmlDeviceGetUUID", lib.nvmlDeviceGetUUID(handle, buf, buf.length));
    return NvmlCalls.cString(buf);
  }

  public String name() throws NvmlException {
    byte[] buf = new byte[NvmlLibrary.DEVICE_STRING_BUFFER_SIZE];
    NvmlCalls.check(lib, "nvmlDeviceGetName", lib.nvmlDeviceGetName(handle, buf, buf.length));
    return NvmlCalls.cString(buf);
  }

  public NvmlMemory memory() throws NvmlException {
    nvmlMemory_t mem = new nvmlMemory_t();
    NvmlCalls.check(lib, "nvmlDeviceGetMemoryInfo", lib.nvmlDeviceGetMemoryInfo(handle, mem));
    return new NvmlMemory(mem.total, mem.free, mem.used);
  }

  /**
   * The compute processes now: a size query, then a fetch with spare entries, asked again with
   * the new size if processes started in between. An empty list when there are none.
   */
  public List<NvmlProcess> computeProcesses() throws NvmlException {
    String function = "nvmlDeviceGetComputeRunningProcesses_v3";
    IntByReference count = new IntByReference(0);
    int rc = lib.nvmlDeviceGetComputeRunningProcesses_v3(handle, count, null);
    for (int i = 0; i < PROCESS_QUERY_ATTEMPTS && rc == insufficientSize(); i++) {
      int capacity = count.getValue() + SPARE_PROCESS_ENTRIES;
      nvmlProcessInfo_t[] infos = (nvmlProcessInfo_t[]) new nvmlProcessInfo_t().toArray(capacity);
      count.setValue(capacity);
      rc = lib.nvmlDeviceGetComputeRunningProcesses_v3(handle, count, infos);
      if (rc == NvmlReturn.NVML_SUCCESS.code()) return processes(infos, count.getValue());
    }
    NvmlCalls.check(lib, function, rc);
    return List.of();
  }

  /**
   * Utilisation, temperature and power (milliwatts turned to whole watts): each null when the device
   * does not give it (NVML_ERROR_NOT_SUPPORTED, or any refusal but a lost GPU, which throws).
   */
  public GpuFigures figures() throws NvmlException {
    nvmlUtilization_t util = new nvmlUtilization_t();
    boolean hasUtil = given("nvmlDeviceGetUtilizationRates", lib.nvmlDeviceGetUtilizationRates(handle, util));
    IntByReference temp = new IntByReference();
    boolean hasTemp = given("nvmlDeviceGetTemperature",
        lib.nvmlDeviceGetTemperature(handle, NvmlLibrary.NVML_TEMPERATURE_GPU, temp));
    IntByReference power = new IntByReference();
    boolean hasPower = given("nvmlDeviceGetPowerUsage", lib.nvmlDeviceGetPowerUsage(handle, power));
    IntByReference limit = new IntByReference();
    boolean hasLimit = given("nvmlDeviceGetEnforcedPowerLimit", lib.nvmlDeviceGetEnforcedPowerLimit(handle, limit));
    return new GpuFigures(hasUtil ? util.gpu : null, hasUtil ? util.memory : null,
        hasTemp ? temp.getValue() : null, hasPower ? watts(power) : null, hasLimit ? watts(limit) : null);
  }

  /** The volatile count of uncorrectable ECC errors; null when ECC is off or not reported. */
  public Long uncorrectableEccErrors() throws NvmlException {
    LongByReference count = new LongByReference();
    int rc = lib.nvmlDeviceGetTotalEccErrors(handle, NvmlLibrary.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
        NvmlLibrary.NVML_VOLATILE_ECC, count);
    return given("nvmlDeviceGetTotalEccErrors", rc) ? count.getValue() : null;
  }

  /** Whether retired pages wait for a reset (GPUs before Ampere); false when not reported. */
  public boolean retiredPagesPending() throws NvmlException {
    IntByReference pending = new IntByReference();
    int rc = lib.nvmlDeviceGetRetiredPagesPendingStatus(handle, pending);
    return given("nvmlDeviceGetRetiredPagesPendingStatus", rc)
        && pending.getValue() == NvmlLibrary.NVML_FEATURE_ENABLED;
  }

  /** Whether a row remapping failed (Ampere and later); false when not reported. */
  public boolean rowRemapFailed() throws NvmlException {
    IntByReference corr = new IntByReference();
    IntByReference unc = new IntByReference();
    IntByReference pending = new IntByReference();
    IntByReference failed = new IntByReference();
    int rc = lib.nvmlDeviceGetRemappedRows(handle, corr, unc, pending, failed);
    return given("nvmlDeviceGetRemappedRows", rc) && failed.getValue() != 0;
  }

  /** Registers this device's critical Xid errors with {@code set}; false when the device cannot report them. */
  boolean registerXidEvents(Pointer set) throws NvmlException {
    int rc = lib.nvmlDeviceRegisterEvents(handle, NvmlLibrary.nvmlEventTypeXidCriticalError, set);
    return given("nvmlDeviceRegisterEvents", rc);
  }

  Pointer handle() {
    return handle;
  }

  /** True on success, false when the device refuses; throws only for a GPU that fell off the bus. */
  private boolean given(String function, int rc) throws NvmlException {
    if (rc == NvmlReturn.NVML_SUCCESS.code()) return true;
    if (rc == NvmlReturn.NVML_ERROR_GPU_IS_LOST.code()) NvmlCalls.check(lib, function, rc);
    return false;
  }

  private static int watts(IntByReference milliwatts) {
    return (int) Math.round(Integer.toUnsignedLong(milliwatts.getValue()) / 1000.0);
  }

  private static List<NvmlProcess> processes(nvmlProcessInfo_t[] infos, int count) {
    List<NvmlProcess> result = new ArrayList<>(count);
    for (int i = 0; i < Math.min(count, infos.length); i++) {
      nvmlProcessInfo_t info = infos[i];
      info.read();
      long used = info.usedGpuMemory == NvmlLibrary.NVML_VALUE_NOT_AVAILABLE
          ? -1 : info.usedGpuMemory;
      result.add(new NvmlProcess(Integer.toUnsignedLong(info.pid), used));
    }
    return List.copyOf(result);
  }

  private static int insufficientSize() {
    return NvmlReturn.NVML_ERROR_INSUFFICIENT_SIZE.code();
  }

  @Override
  public String toString() {
    return "NVML device " + index;
  }
}

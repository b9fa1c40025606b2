package dev.gq.nvml;

import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.gq.nvml.raw.NvmlLibrary;
import dev.gq.nvml.raw.NvmlReturn;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The NVML facade: speaks Java over {@link NvmlLibrary}. It loads the library on the first
 * {@link #init()} (never at class load), by the driver's soname or by an explicit path, and
 * initialises NVML once until {@link #shutdown()}; a failed load or init is not remembered, so a
 * later {@code init()} tries again. Every failure is an {@link NvmlException} with a one-line
 * message. Thread-safe. Used by {@link NvmlGpuProbe} and {@link GpuList}.
 */
public final class Nvml implements AutoCloseable {

  private final String library;
  private volatile NvmlLibrary lib;
  private boolean initialized;

  /** NVML of the installed driver, {@code libnvidia-ml.so.1}. */
  public Nvml() {
    this(NvmlLibrary.SONAME);
  }

  /** NVML from {@code library}: a soname searched as the dynamic linker does, or a file path. */
  public Nvml(String library) {
    this.library = library;
  }

  public String library() {
    return library;
  }

  /** Loads the library when not loaded yet and calls {@code nvmlInit_v2} unless already done. */
  public synchronized void init() throws NvmlException {
    if (initialized) return;
    check("nvmlInit_v2", loaded().nvmlInit_v2());
    initialized = true;
  }

  public synchronized boolean initialized() {
    return initialized;
  }

  /** Calls {@code nvmlShutdown} when initialised; never fails (a failure there changes nothing). */
  public synchronized void shutdown() {
    if (!initialized) return;
    initialized = false;
    lib.nvmlShutdown();
  }

  @Override
  public void close() {
    shutdown();
  }

  /** The driver version, e.g. {@code 550.54.15}. */
  public String driverVersion() throws NvmlException {
    byte[] buf = new byte[NvmlLibrary.DRIVER_VERSION_BUFFER_SIZE];
    check("nvmlSystemGetDriverVersion", raw().nvmlSystemGetDriverVersion(buf, buf.length));
    return NvmlCalls.cString(buf);
  }

  public int deviceCount() throws NvmlException {
    IntByReference count = new IntByReference();
    check("nvmlDeviceGetCount_v2", raw().nvmlDeviceGetCount_v2(count));
    return count.getValue();
  }

  /** The device at NVML index {@code index} (PCI bus order, as CUDA_DEVICE_ORDER=PCI_BUS_ID). */
  public NvmlDevice device(int index) throws NvmlException {
    PointerByReference handle = new PointerByReference();
    check("nvmlDeviceGetHandleByIndex_v2", raw().nvmlDeviceGetHandleByIndex_v2(index, handle));
    return new NvmlDevice(raw(), index, handle.getValue());
  }

  /** The binding, for {@link NvmlDevice} and {@link XidEvents}; fails when the library was never loaded. */
  synchronized NvmlLibrary raw() throws NvmlException {
    if (lib == null) {
      throw new NvmlException("nvmlInit_v2", NvmlReturn.NVML_ERROR_UNINITIALIZED.code(),
          "NVML is not initialised: call init() first");
    }
    return lib;
  }

  /** Throws an {@link NvmlException} naming {@code function} unless {@code rc} is NVML_SUCCESS. */
  void check(String function, int rc) throws NvmlException {
    NvmlCalls.check(lib, function, rc);
  }

  private NvmlLibrary loaded() throws NvmlException {
    if (lib != null) return lib;
    try {
      lib = Native.load(library, NvmlLibrary.class);
      return lib;
    } catch (UnsatisfiedLinkError e) {
      throw new NvmlException("nvmlInit_v2", NvmlReturn.NVML_ERROR_LIBRARY_NOT_FOUND.code(),
          unavailable(library, e));
    }
  }

  /**
   * One line. JNA's message lists every place it tried, on several lines, some the same, and
   * ends with the class path it searched: keep the distinct reasons the dynamic linker gave.
   */
  static String unavailable(String library, Throwable cause) {
    Set<String> reasons = new LinkedHashSet<>();
    for (String line : String.valueOf(cause.getMessage()).split("\n")) {
      String reason = line.strip();
      if (reason.isEmpty() || reason.startsWith("Unable to load library")
          || reason.contains("not found in resource path")) continue;
      reasons.add(reason);
    }
    String why = reasons.isEmpty()
        ? String.valueOf(cause.getMessage()).strip().replaceAll("\\s*\n\\s*", " ")
        : String.join("; ", reasons);
    return "NVIDIA NVML (" + library + ") is not available: no NVIDIA driver on this machine? ("
        + why + ")";
  }
}

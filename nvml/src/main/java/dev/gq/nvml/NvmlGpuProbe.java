package dev.gq.nvml;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.nvml.raw.NvmlReturn;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real {@link GpuProbe}: NVML through {@link Nvml}. {@link #read()} never throws: a failure of
 * the library, of init or of the device count fails the whole reading (and NVML is shut down so
 * the next read initialises it again: the driver may come back); a failure on one device fails
 * that device only. A device whose UUID cannot be read keeps the UUID last seen at its index, so
 * the GPU a job holds shows as UNKNOWN rather than vanishing. A missing library is looked for
 * again only every {@link #LIBRARY_RETRY} (each search costs milliseconds); a failed init is tried
 * again at every read. Thread-safe; the GpuWatcher calls it from a blocking dispatcher.
 */
public final class NvmlGpuProbe implements GpuProbe {

  /** How long a failed library load is answered from memory before the library is sought again. */
  public static final Duration LIBRARY_RETRY = Duration.ofSeconds(30);

  private final Nvml nvml;
  private final InstantSource clock;
  private final Map<Integer, String> lastUuids = new HashMap<>();
  private String driverVersion;
  private String unavailable;
  private NvmlException libraryMissing;
  private Instant libraryMissingAt;

  /** NVML of the installed driver, with the system clock. */
  public NvmlGpuProbe() {
    this(new Nvml(), InstantSource.system());
  }

  public NvmlGpuProbe(Nvml nvml, InstantSource clock) {
    this.nvml = nvml;
    this.clock = clock;
  }

  @Override
  public synchronized GpuReading read() {
    Instant now = clock.instant();
    try {
      ensureInitialized();
      int count = nvml.deviceCount();
      List<DeviceReading> devices = new ArrayList<>(count);
      for (int index = 0; index < count; index++) {
        devices.add(readDevice(index));
      }
      return new GpuReading(now, devices, null);
    } catch (NvmlException e) {
      return failed(now, e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      return failed(now, "NVML query failed: " + e);
    }
  }

  @Override
  public synchronized String describe() {
    try {
      ensureInitialized();
      return "NVML (driver " + driverVersion + ")";
    } catch (NvmlException e) {
      return e.getMessage();
    } catch (RuntimeException | LinkageError e) {
      return "NVML query failed: " + e;
    }
  }

  @Override
  public boolean fake() {
    return false;
  }

  @Override
  public synchronized void close() {
    nvml.shutdown();
  }

  /** The text of the last failed init or load, or null when NVML answered last time. */
  public synchronized String unavailableReason() {
    return unavailable;
  }

  private void ensureInitialized() throws NvmlException {
    if (nvml.initialized()) return;
    Instant now = clock.instant();
    if (libraryMissing != null && now.isBefore(libraryMissingAt.plus(LIBRARY_RETRY))) {
      throw libraryMissing;
    }
    try {
      nvml.init();
      driverVersion = versionOrUnknown();
      unavailable = null;
      libraryMissing = null;
    } catch (NvmlException e) {
      unavailable = e.getMessage();
      if (e.code() == NvmlReturn.NVML_ERROR_LIBRARY_NOT_FOUND.code()) {
        libraryMissing = e;
        libraryMissingAt = now;
      }
      throw e;
    }
  }

  private String versionOrUnknown() {
    try {
      return nvml.driverVersion();
    } catch (NvmlException e) {
      return "version unknown";
    }
  }

  /** Shuts NVML down so that the next read starts over with init. */
  private GpuReading failed(Instant now, String error) {
    nvml.shutdown();
    return GpuReading.failed(now, error);
  }

  private DeviceReading readDevice(int index) {
    String uuid = lastUuids.getOrDefault(index, placeholderUuid(index));
    try {
      NvmlDevice device = nvml.device(index);
      uuid = device.uuid();
      lastUuids.put(index, uuid);
      NvmlMemory memory = device.memory();
      List<GpuProcess> processes = device.computeProcesses().stream()
          .map(p -> new GpuProcess(p.pid(), p.usedBytes()))
          .toList();
      return new DeviceReading(index, uuid, device.name(), memory.totalBytes(),
          memory.usedBytes(), processes, null);
    } catch (NvmlException e) {
      return DeviceReading.failed(index, uuid, e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      return DeviceReading.failed(index, uuid, "NVML query failed: " + e);
    }
  }

  /** The UUID of a device never read: no real UUID looks like it. */
  static String placeholderUuid(int index) {
    return "unknown-gpu-" + index;
  }
}

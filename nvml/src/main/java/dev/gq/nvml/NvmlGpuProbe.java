package dev.gq.nvml;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuHealth;
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
 * again at every read. Each device's figures (utilisation, temperature, power) and health (critical
 * Xid errors from an event set read without blocking, uncorrectable ECC errors, retired pages pending,
 * failed row remapping) come with it; a device that fell off the bus (NVML_ERROR_GPU_IS_LOST) fails
 * with its health saying so. Thread-safe; the GpuWatcher calls it from a blocking dispatcher.
 */
public final class NvmlGpuProbe implements GpuProbe {

  /**
   * How long a critical Xid stays in the readings after the driver reported it: every reading taken
   * meanwhile carries it, so a reading made for another purpose (the reconciler's) cannot swallow it
   * before the GPU watcher's next one sees it. Repeats of one Xid count once (see core's Unwell).
   */
  public static final Duration XID_RETENTION = Duration.ofSeconds(10);

  /** How long a failed library load is answered from memory before the library is sought again. */
  public static final Duration LIBRARY_RETRY = Duration.ofSeconds(30);

  private final Nvml nvml;
  private final InstantSource clock;
  private final Map<Integer, String> lastUuids = new HashMap<>();
  private String driverVersion;
  private String unavailable;
  private NvmlException libraryMissing;
  private Instant libraryMissingAt;
  private XidEvents xidEvents;
  private boolean xidEventsTried;
  private final List<SeenXid> recentXids = new ArrayList<>();

  /** A critical Xid of the device at {@code index}, taken from the event set at {@code at}. */
  private record SeenXid(int index, int xid, Instant at) {}

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
      Map<Integer, List<Integer>> xids = xids(count);
      List<DeviceReading> devices = new ArrayList<>(count);
      for (int index = 0; index < count; index++) {
        devices.add(readDevice(index, xids.getOrDefault(index, List.of())));
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
    closeXidEvents();
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
    closeXidEvents();
    nvml.shutdown();
    return GpuReading.failed(now, error);
  }

  private DeviceReading readDevice(int index, List<Integer> xids) {
    String uuid = lastUuids.getOrDefault(index, placeholderUuid(index));
    try {
      NvmlDevice device = nvml.device(index);
      uuid = device.uuid();
      lastUuids.put(index, uuid);
      NvmlMemory memory = device.memory();
      List<GpuProcess> processes = device.computeProcesses().stream()
          .map(p -> new GpuProcess(p.pid(), p.usedBytes()))
          .toList();
      GpuHealth health = new GpuHealth(xids, device.uncorrectableEccErrors(), device.retiredPagesPending(),
          device.rowRemapFailed(), false);
      return new DeviceReading(index, uuid, device.name(), memory.totalBytes(),
          memory.usedBytes(), processes, null, device.figures(), health);
    } catch (NvmlException e) {
      boolean lost = e.code() == NvmlReturn.NVML_ERROR_GPU_IS_LOST.code();
      GpuHealth health = lost ? GpuHealth.gone() : new GpuHealth(xids, null, false, false, false);
      return DeviceReading.failed(index, uuid, e.getMessage(), health);
    } catch (RuntimeException | LinkageError e) {
      return DeviceReading.failed(index, uuid, "NVML query failed: " + e);
    }
  }

  /**
   * The critical Xids reported within {@link #XID_RETENTION}, by device index, in the order they
   * came. The event set is made on the first read after each init; where NVML cannot make one, no
   * Xid is read until the next init.
   */
  private Map<Integer, List<Integer>> xids(int count) {
    try {
      if (!xidEventsTried) {
        xidEventsTried = true;
        List<NvmlDevice> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) devices.add(nvml.device(i));
        xidEvents = XidEvents.open(nvml, devices);
      }
      Instant now = clock.instant();
      if (xidEvents != null) xidEvents.take().forEach((index, xs) -> xs.forEach(x -> recentXids.add(new SeenXid(index, x, now))));
    } catch (NvmlException | RuntimeException | LinkageError e) {
      // the devices' own queries say what failed
    }
    Instant oldest = clock.instant().minus(XID_RETENTION);
    recentXids.removeIf(x -> x.at().isBefore(oldest));
    Map<Integer, List<Integer>> out = new HashMap<>();
    recentXids.forEach(x -> out.computeIfAbsent(x.index(), k -> new ArrayList<>()).add(x.xid()));
    return out;
  }

  private void closeXidEvents() {
    if (xidEvents != null) xidEvents.close();
    xidEvents = null;
    xidEventsTried = false;
  }

  /** The UUID of a device never read: no real UUID looks like it. */
  static String placeholderUuid(int index) {
    return "unknown-gpu-" + index;
  }
}

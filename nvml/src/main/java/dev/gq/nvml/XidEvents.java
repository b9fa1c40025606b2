package dev.gq.nvml;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.gq.nvml.raw.NvmlLibrary;
import dev.gq.nvml.raw.NvmlLibrary.nvmlEventData_t;
import dev.gq.nvml.raw.NvmlReturn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An NVML event set registered for critical Xid errors on every device that reports them, made once
 * per NVML initialisation. {@link #take()} collects what waits without ever blocking (a wait with
 * timeout 0 until NVML says there is nothing more, at most {@link #MAX_PER_TAKE} a call), so a poll
 * costs one call when nothing happened. Not thread-safe: {@link NvmlGpuProbe} calls it under its lock.
 */
final class XidEvents implements AutoCloseable {

  /** Bounds one take: a storm of events is read over several polls instead of stalling one. */
  static final int MAX_PER_TAKE = 64;

  private final Nvml nvml;
  private final Pointer set;
  private final Map<Pointer, Integer> indices;

  private XidEvents(Nvml nvml, Pointer set, Map<Pointer, Integer> indices) {
    this.nvml = nvml;
    this.set = set;
    this.indices = Map.copyOf(indices);
  }

  /** A set for {@code devices}; null when NVML cannot make one (Xid errors are then not read). */
  static XidEvents open(Nvml nvml, List<NvmlDevice> devices) throws NvmlException {
    PointerByReference ref = new PointerByReference();
    int rc = nvml.raw().nvmlEventSetCreate(ref);
    if (rc != NvmlReturn.NVML_SUCCESS.code()) return null;
    Map<Pointer, Integer> indices = new HashMap<>();
    for (NvmlDevice d : devices) {
      if (d.registerXidEvents(ref.getValue())) indices.put(d.handle(), d.index());
    }
    return new XidEvents(nvml, ref.getValue(), indices);
  }

  /** The critical Xids waiting now, by device index, in the order they came. */
  Map<Integer, List<Integer>> take() throws NvmlException {
    NvmlLibrary lib = nvml.raw();
    Map<Integer, List<Integer>> out = new HashMap<>();
    for (int i = 0; i < MAX_PER_TAKE; i++) {
      nvmlEventData_t data = new nvmlEventData_t();
      int rc = lib.nvmlEventSetWait_v2(set, data, 0);
      if (rc != NvmlReturn.NVML_SUCCESS.code()) break;  // NVML_ERROR_TIMEOUT: nothing more waits
      if (data.eventType != NvmlLibrary.nvmlEventTypeXidCriticalError) continue;
      Integer index = indices.get(data.device);
      if (index != null) out.computeIfAbsent(index, k -> new ArrayList<>()).add((int) data.eventData);
    }
    return out;
  }

  @Override
  public void close() {
    try {
      nvml.raw().nvmlEventSetFree(set);
    } catch (NvmlException | RuntimeException | LinkageError e) {
      // the set goes with NVML's shutdown anyway
    }
  }
}

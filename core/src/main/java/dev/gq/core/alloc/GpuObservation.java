package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import java.util.Map;

/**
 * One GPU reading together with the /proc facts of every PID it lists (absent = not visible in
 * /proc) and the machine-wide lease of every GPU it lists, read after it. {@code self} is the gq
 * instance that read them; null when leases were not checked (an observation built without them,
 * as in tests of a single gq), and then every lease counts as free.
 */
public record GpuObservation(
    GpuReading reading, Map<Long, ProcessFacts> facts, Map<String, GpuLease> leases, LeaseHolder.Instance self) {
  public GpuObservation {
    facts = Map.copyOf(facts);
    leases = Map.copyOf(leases);
  }

  /** An observation whose leases were not checked. */
  public GpuObservation(GpuReading reading, Map<Long, ProcessFacts> facts) {
    this(reading, facts, Map.of(), null);
  }

  /** The lease of GPU {@code uuid}: FREE when leases were not checked, UNREADABLE when one is missing. */
  public GpuLease lease(String uuid) {
    if (self == null) return GpuLease.FREE;
    GpuLease l = leases.get(uuid);
    return l != null ? l : GpuLease.unreadable("its lease was not read");
  }
}

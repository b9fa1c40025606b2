package dev.gq.core.alloc;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The allocation invariant as a pure function: classifies every GPU from the latest reading, the
 * reservations, the /proc facts of the listed PIDs and the machine-wide leases. First match per
 * device: the reading failed, or its lease cannot be checked → UNKNOWN; not reserved and its lease
 * name taken by a file that is no lease this user can take or test (LeaseRules) → EXTERNAL, naming
 * that file's owner (reserved: UNKNOWN); reserved by J while another
 * job's lease holds it, with a process J does not own, or J orphaned → UNKNOWN; reserved → RESERVED
 * (J starting) or RUNNING; not reserved but held by a lease (another gq's job, or one of this gq's
 * that ended with something of it still running) → EXTERNAL; not reserved with any compute process
 * → EXTERNAL; else FREE. An empty process list never frees a reserved GPU; utilization is never
 * looked at.
 */
public final class GpuClassifier {
  /** How the detail of a GPU whose lease could not be checked begins. */
  public static final String LEASE_UNCHECKED = "cannot check its machine-wide lease: ";

  private GpuClassifier() {}

  /**
   * @param lastKnown the devices of the last successful reading, shown UNKNOWN when the whole
   *     reading failed
   */
  public static List<GpuStatus> classify(
      GpuObservation obs, List<DeviceReading> lastKnown, Map<String, Job> reservations, Collection<Job> live) {
    List<GpuStatus> out = new ArrayList<>();
    if (!obs.reading().ok()) {
      for (DeviceReading d : lastKnown)
        out.add(status(d, GpuState.UNKNOWN, owner(reservations, d), "GPU query failed: " + obs.reading().error()));
      return out;
    }
    for (DeviceReading d : obs.reading().devices()) out.add(one(d, obs, reservations.get(d.uuid()), live));
    return out;
  }

  private static GpuStatus one(DeviceReading d, GpuObservation obs, Job holder, Collection<Job> live) {
    Map<Long, ProcessFacts> facts = obs.facts();
    Long owner = holder == null ? null : holder.id();
    if (d.error() != null) return status(d, GpuState.UNKNOWN, owner, "cannot read this GPU: " + d.error());
    GpuLease lease = obs.lease(d.uuid());
    if (lease.state() == GpuLease.State.UNREADABLE)
      return status(d, GpuState.UNKNOWN, owner, LEASE_UNCHECKED + lease.error());
    if (lease.state() == GpuLease.State.BLOCKED && holder != null)
      return status(d, GpuState.UNKNOWN, owner, "reserved for job " + holder.id() + " but " + lease.error());
    if (lease.state() == GpuLease.State.BLOCKED)
      return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.EXTERNAL, null, d.processes(), d.totalBytes(),
          d.usedBytes(), lease.error(), "a file at its lease");
    String other = otherHolder(lease, holder, obs.self());
    if (other != null && holder != null)
      return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.UNKNOWN, owner, d.processes(), d.totalBytes(),
          d.usedBytes(), "reserved for job " + holder.id() + " but its lease is held by " + other, other);
    if (other != null)
      return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.EXTERNAL, null, d.processes(), d.totalBytes(),
          d.usedBytes(), "held by " + other + " (its machine-wide lease)", other);
    if (holder != null) {
      if (holder.state() == JobState.ORPHANED)
        return status(d, GpuState.UNKNOWN, owner, "held by orphaned job " + holder.id());
      List<GpuProcess> foreign = d.processes().stream().filter(p -> !Ownership.owns(holder, facts.get(p.pid()))).toList();
      if (!foreign.isEmpty())
        return status(d, GpuState.UNKNOWN, owner, "reserved for job " + holder.id() + " but used by process(es) it does not own: " + pids(foreign));
      return status(d, holder.state() == JobState.STARTING ? GpuState.RESERVED : GpuState.RUNNING, owner, null);
    }
    if (!d.processes().isEmpty()) return status(d, GpuState.EXTERNAL, null, external(d.processes(), facts, live));
    return status(d, GpuState.FREE, null, null);
  }

  /**
   * Who holds the lease when it is not the reserving job {@code holder} itself: another gq's job, a
   * job of this gq other than the holder (one that ended and left something running), or a holder
   * whose line cannot be read; null when the lease is free or the holder's own.
   */
  private static String otherHolder(GpuLease lease, Job holder, LeaseHolder.Instance self) {
    if (lease.state() != GpuLease.State.HELD) return null;
    LeaseHolder h = lease.holder();
    if (h == null) return "a gq job whose lease does not say who it is";
    if (h.of(self)) {
      if (holder != null && holder.id() == h.jobId()) return null;
      return "what job " + h.jobId() + " left running";
    }
    return h.describe(self);
  }

  private static String external(List<GpuProcess> procs, Map<Long, ProcessFacts> facts, Collection<Job> live) {
    List<String> parts = new ArrayList<>();
    for (GpuProcess p : procs) {
      var j = Ownership.ownerOf(p.pid(), facts, live);
      parts.add(j.isPresent() ? p.pid() + " (job " + j.get().id() + ", outside its GPUs)"
          : facts.containsKey(p.pid()) ? String.valueOf(p.pid()) : p.pid() + " (not visible in /proc)");
    }
    return "in use by process(es) gq does not manage here: " + String.join(", ", parts);
  }

  private static Long owner(Map<String, Job> reservations, DeviceReading d) {
    Job j = reservations.get(d.uuid());
    return j == null ? null : j.id();
  }

  private static String pids(List<GpuProcess> ps) {
    return ps.stream().map(p -> String.valueOf(p.pid())).collect(Collectors.joining(", "));
  }

  private static GpuStatus status(DeviceReading d, GpuState s, Long owner, String detail) {
    return new GpuStatus(d.index(), d.uuid(), d.name(), s, owner, d.processes(), d.totalBytes(), d.usedBytes(), detail);
  }
}

package dev.gq.core.alloc;

import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import dev.gq.core.lease.LeaseShare;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
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
 *
 * <p>A GPU that shared jobs ({@code --share}) hold is SHARED, listing each job's share and the
 * memory its processes use there, when all its holders are shared jobs of this gq, none orphaned,
 * every process on it is owned by one of them, and its lease is free, held by one of them, or shared;
 * otherwise UNKNOWN (never placed), saying why.
 *
 * <p>Shares of the lease that are not this gq's live shared jobs' on that GPU (another instance's,
 * another user's, one left by a job of this gq that ended, one whose line cannot be read) are the
 * GPU's {@code others}: counted in its memory (an unreadable one as the whole card) and in its cap,
 * shown with their holders, ordered by user, data directory and job. This gq's own shares are counted once, from its reservations. A GPU only
 * others share is SHARED here, never FREE, so no exclusive job is placed on it; its processes must
 * each hold the GPU's lease file open (a job's processes inherit it), or, where /proc hides their open
 * files, run as the user of another user's share of it, else it is EXTERNAL. A GPU an exclusive job
 * of this gq holds while the lease is shared is UNKNOWN.
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
    Map<String, List<Job>> holders = new HashMap<>();
    reservations.forEach((uuid, j) -> holders.put(uuid, List.of(j)));
    return classifyShared(obs, lastKnown, holders, live);
  }

  /** As above, each GPU with every live job that holds it (several when they share it). */
  public static List<GpuStatus> classifyShared(
      GpuObservation obs, List<DeviceReading> lastKnown, Map<String, List<Job>> holders, Collection<Job> live) {
    List<GpuStatus> out = new ArrayList<>();
    if (!obs.reading().ok()) {
      for (DeviceReading d : lastKnown) {
        List<Job> h = holders.getOrDefault(d.uuid(), List.of());
        out.add(status(d, GpuState.UNKNOWN, h.isEmpty() ? null : h.get(0).id(), "GPU query failed: " + obs.reading().error()));
      }
      return out;
    }
    for (DeviceReading d : obs.reading().devices()) {
      List<Job> h = holders.getOrDefault(d.uuid(), List.of());
      if (h.stream().anyMatch(j -> j.spec().shares())) out.add(shared(d, obs, h));
      else out.add(one(d, obs, h.isEmpty() ? null : h.get(0), live));
    }
    return out;
  }

  /** A GPU that shared jobs hold: SHARED with their shares, or UNKNOWN saying why not. */
  private static GpuStatus shared(DeviceReading d, GpuObservation obs, List<Job> holders) {
    List<Job> jobs = holders.stream().sorted(Comparator.comparingLong(Job::id)).toList();
    Long first = jobs.get(0).id();
    String ids = jobs.stream().map(j -> String.valueOf(j.id())).collect(Collectors.joining(", "));
    if (d.error() != null) return status(d, GpuState.UNKNOWN, first, "cannot read this GPU: " + d.error());
    List<Job> exclusive = jobs.stream().filter(j -> !j.spec().shares()).toList();
    if (!exclusive.isEmpty())
      return status(d, GpuState.UNKNOWN, first, "held by exclusive job " + exclusive.get(0).id() + " and shared jobs " + ids);
    GpuLease lease = obs.lease(d.uuid());
    if (lease.state() == GpuLease.State.UNREADABLE) return status(d, GpuState.UNKNOWN, first, LEASE_UNCHECKED + lease.error());
    if (lease.state() == GpuLease.State.BLOCKED)
      return status(d, GpuState.UNKNOWN, first, "shared by jobs " + ids + " but " + lease.error());
    List<GpuStatus.Other> others = lease.state() == GpuLease.State.SHARED ? others(lease, d, jobs, obs.self()) : List.of();
    if (lease.state() == GpuLease.State.HELD) {
      LeaseHolder h = lease.holder();
      boolean ours = h != null && (obs.self() == null || h.of(obs.self())) && jobs.stream().anyMatch(j -> j.id() == h.jobId());
      if (!ours) {
        String other = h == null ? "a gq job whose lease does not say who it is"
            : h.of(obs.self()) ? "what job " + h.jobId() + " left running" : h.describe(obs.self());
        return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.UNKNOWN, first, d.processes(), d.totalBytes(),
            d.usedBytes(), "shared by jobs " + ids + " but its lease is held by " + other, other);
      }
    }
    for (Job j : jobs)
      if (j.state() == JobState.ORPHANED) return status(d, GpuState.UNKNOWN, first, "held by orphaned job " + j.id());
    Map<Long, ProcessFacts> facts = obs.facts();
    List<GpuProcess> foreign = d.processes().stream()
        .filter(p -> jobs.stream().noneMatch(j -> Ownership.owns(j, facts.get(p.pid())))
            && !(!others.isEmpty() && othersJob(facts.get(p.pid()), d.uuid(), lease, obs.self()))).toList();
    if (!foreign.isEmpty())
      return status(d, GpuState.UNKNOWN, first, "shared by jobs " + ids + " but used by process(es) none of them owns: " + pids(foreign));
    List<GpuStatus.Share> shares = new ArrayList<>();
    for (Job j : jobs) {
      long used = 0;
      for (GpuProcess p : d.processes()) {
        if (!Ownership.owns(j, facts.get(p.pid()))) continue;
        if (p.usedBytes() < 0) { used = -1; break; }
        used += p.usedBytes();
      }
      var need = j.spec().gpuNeed();
      shares.add(new GpuStatus.Share(j.id(), need.vramMiB(), need.perGpu(), used < 0 ? -1 : used >> 20));
    }
    return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.SHARED, first, d.processes(), d.totalBytes(), d.usedBytes(),
        null, null, shares, others);
  }

  /**
   * The shares of {@code lease} (SHARED) that are not those of {@code jobs}, this gq's shared jobs on
   * the GPU: each with its holder and the memory it counts for (an unreadable one: the whole card).
   */
  private static List<GpuStatus.Other> others(GpuLease lease, DeviceReading d, List<Job> jobs, LeaseHolder.Instance self) {
    List<GpuStatus.Other> out = new ArrayList<>();
    // by holder (user, data directory, job), unreadable ones last: the same order in every reading
    List<LeaseShare> byHolder = lease.shares().stream().sorted(Comparator
        .comparing((LeaseShare s) -> !s.known())
        .thenComparing(s -> s.known() ? s.holder().instance().user() : "")
        .thenComparing(s -> s.known() ? s.holder().instance().dataDir() : "")
        .thenComparingLong(s -> s.known() ? s.holder().jobId() : 0)).toList();
    for (LeaseShare s : byHolder) {
      LeaseHolder h = s.holder();
      if (s.known() && (self == null || h.of(self)) && jobs.stream().anyMatch(j -> j.id() == h.jobId())) continue;
      String who = !s.known() ? "a gq job whose share does not say who it is"
          : self != null && h.of(self) ? "what job " + h.jobId() + " left running" : h.describe(self);
      out.add(new GpuStatus.Other(who, LeaseRules.declaredMiB(List.of(s), d.totalBytes() >> 20), s.perGpu()));
    }
    return out;
  }

  /**
   * Whether the process of {@code f} is taken for a job of another gq instance sharing GPU {@code uuid}
   * ({@code lease}, SHARED): it holds the GPU's lease file open (a job's processes inherit it), or,
   * where its open files could not be read (another Unix user's process, to a daemon that is not
   * root), it runs as the user of one of the other users' live shares of the GPU.
   */
  private static boolean othersJob(ProcessFacts f, String uuid, GpuLease lease, LeaseHolder.Instance self) {
    if (f == null) return false;
    if (f.leases().contains(uuid)) return true;
    if (f.hiddenUid() < 0) return false;
    return lease.shares().stream().anyMatch(s -> s.known() && s.holder().instance().uid() == f.hiddenUid()
        && (self == null || s.holder().instance().uid() != self.uid()));
  }

  private static String list(List<GpuStatus.Other> others) {
    return others.stream().map(GpuStatus.Other::holder).collect(Collectors.joining(", "));
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
    if (lease.state() == GpuLease.State.SHARED) {
      List<GpuStatus.Other> others = others(lease, d, List.of(), obs.self());
      String who = list(others);
      if (holder != null)
        return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.UNKNOWN, owner, d.processes(), d.totalBytes(),
            d.usedBytes(), "reserved for job " + holder.id() + " but shared by " + who, who, List.of(), others);
      List<GpuProcess> strangers = d.processes().stream()
          .filter(p -> !othersJob(facts.get(p.pid()), d.uuid(), lease, obs.self())).toList();
      if (!strangers.isEmpty())
        return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.EXTERNAL, null, d.processes(), d.totalBytes(),
            d.usedBytes(), external(strangers, facts, live), who, List.of(), others);
      return new GpuStatus(d.index(), d.uuid(), d.name(), GpuState.SHARED, null, d.processes(), d.totalBytes(),
          d.usedBytes(), null, who, List.of(), others);
    }
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

  private static String pids(List<GpuProcess> ps) {
    return ps.stream().map(p -> String.valueOf(p.pid())).collect(Collectors.joining(", "));
  }

  private static GpuStatus status(DeviceReading d, GpuState s, Long owner, String detail) {
    return new GpuStatus(d.index(), d.uuid(), d.name(), s, owner, d.processes(), d.totalBytes(), d.usedBytes(), detail);
  }
}

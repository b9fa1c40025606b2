package dev.gq.core.ledger;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the user set for the queue: each group's cap on active jobs ({@code maxRunning}), the
 * GPUs drained of new jobs (UUID → reason), the waiting jobs held one by one, the preemptions under
 * way (job id → how it was asked for), and the GPUs a preemption freed for a named waiting job
 * (UUID → that job's id), which no other job gets while that job waits; and for jobs a Slurm
 * cluster runs, each live one's Slurm job id once sbatch accepted it ({@code clusterIds}) and each
 * profile whose cluster does not answer, with the reason ({@code unreachable}); and the live shared
 * jobs already told that they use more of a GPU than they declared ({@code overTold}), told once;
 * and each group's count of shared jobs per GPU ({@code perGpu}, {@code gq groups G --per-gpu K}),
 * which the GPU jobs submitted to it afterwards take.
 */
public record QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs,
    Map<Long, Preemption> preempting, Map<String, Long> keptFor, Map<Long, String> clusterIds,
    Map<String, String> unreachable, Set<Long> overTold, Map<String, Integer> perGpu) {
  public static final QueueSettings NONE = new QueueSettings(Map.of(), Map.of(), Set.of());

  public QueueSettings {
    maxRunning = maxRunning == null ? Map.of() : Map.copyOf(maxRunning);
    drained = drained == null ? Map.of() : Map.copyOf(drained);
    heldJobs = heldJobs == null ? Set.of() : Set.copyOf(heldJobs);
    preempting = preempting == null ? Map.of() : Map.copyOf(preempting);
    keptFor = keptFor == null ? Map.of() : Map.copyOf(keptFor);
    clusterIds = PersistentMap.of(clusterIds == null ? Map.of() : clusterIds);
    unreachable = unreachable == null ? Map.of() : Map.copyOf(unreachable);
    overTold = overTold == null ? Set.of() : Set.copyOf(overTold);
    perGpu = perGpu == null ? Map.of() : Map.copyOf(perGpu);
  }

  /** No group counting shared jobs per GPU (as stored before groups could). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs,
      Map<Long, Preemption> preempting, Map<String, Long> keptFor, Map<Long, String> clusterIds,
      Map<String, String> unreachable, Set<Long> overTold) {
    this(maxRunning, drained, heldJobs, preempting, keptFor, clusterIds, unreachable, overTold, Map.of());
  }

  /** Group {@code group}'s later GPU jobs share their GPUs, at most {@code n} a GPU (null: as each job asks). */
  QueueSettings perGpu(String group, Integer n) {
    return new QueueSettings(maxRunning, drained, heldJobs, preempting, keptFor, clusterIds, unreachable, overTold,
        with(perGpu, group, n));
  }

  /** No shared job told it is over its share (as stored before jobs could share a GPU). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs,
      Map<Long, Preemption> preempting, Map<String, Long> keptFor, Map<Long, String> clusterIds,
      Map<String, String> unreachable) {
    this(maxRunning, drained, heldJobs, preempting, keptFor, clusterIds, unreachable, Set.of());
  }

  /** Job {@code id} was told it uses more of a GPU than it declared. */
  QueueSettings toldOver(long id) {
    Set<Long> next = new HashSet<>(overTold);
    next.add(id);
    return new QueueSettings(maxRunning, drained, heldJobs, preempting, keptFor, clusterIds, unreachable, next, perGpu);
  }

  /** No cluster jobs (as stored before jobs could run on a cluster). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs,
      Map<Long, Preemption> preempting, Map<String, Long> keptFor) {
    this(maxRunning, drained, heldJobs, preempting, keptFor, Map.of(), Map.of());
  }

  /** No preemption under way (as stored before jobs could be preempted). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs) {
    this(maxRunning, drained, heldJobs, Map.of(), Map.of());
  }

  /** Without held jobs (as stored before jobs could be held one by one). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained) {
    this(maxRunning, drained, Set.of());
  }

  QueueSettings limit(String group, Integer n) {
    return new QueueSettings(with(maxRunning, group, n), drained, heldJobs, preempting, keptFor, clusterIds, unreachable, overTold, perGpu);
  }

  QueueSettings drain(String uuid, String reason) {
    return new QueueSettings(maxRunning, with(drained, uuid, reason), heldJobs, preempting, keptFor, clusterIds, unreachable, overTold, perGpu);
  }

  QueueSettings hold(List<Long> ids, boolean held) {
    Set<Long> next = new HashSet<>(heldJobs);
    if (held) next.addAll(ids);
    else next.removeAll(ids);
    return new QueueSettings(maxRunning, drained, next, preempting, keptFor, clusterIds, unreachable, overTold, perGpu);
  }

  /** Job {@code id}'s preemption begins. */
  QueueSettings preempt(long id, Preemption p) {
    Map<Long, Preemption> next = new HashMap<>(preempting);
    next.put(id, p);
    return new QueueSettings(maxRunning, drained, heldJobs, next, keptFor, clusterIds, unreachable, overTold, perGpu);
  }

  /**
   * Job {@code j} left the state it had: its preemption is over once it has ended, and when it
   * ended PREEMPTED for a job that still waits ({@code forWaiting}), its GPUs are kept for that job;
   * a job that no longer waits has no GPUs kept for it.
   */
  QueueSettings after(Job j, boolean forWaiting) {
    Map<Long, Preemption> p = preempting;
    Map<String, Long> kept = keptFor;
    if (j.state().terminal() && preempting.containsKey(j.id())) {
      p = new HashMap<>(preempting);
      Preemption done = p.remove(j.id());
      if (j.state() == JobState.PREEMPTED && done.forJob() != null && forWaiting) {
        kept = new HashMap<>(kept);
        for (GpuSlot g : j.gpus()) kept.put(g.uuid(), done.forJob());
      }
    }
    if (j.state() != JobState.WAITING && kept.containsValue(j.id())) {
      kept = new HashMap<>(kept);
      kept.values().removeIf(id -> id == j.id());
    }
    Map<Long, String> ids = j.state().terminal() && clusterIds.containsKey(j.id())
        ? ((PersistentMap<Long, String>) clusterIds).minus(j.id()) : clusterIds;
    Set<Long> told = overTold;
    if (j.state().terminal() && overTold.contains(j.id())) {
      told = new HashSet<>(overTold);
      told.remove(j.id());
    }
    if (p == preempting && kept == keptFor && ids == clusterIds && told == overTold) return this;
    return new QueueSettings(maxRunning, drained, heldJobs, p, kept, ids, unreachable, told, perGpu);
  }

  /** Slurm accepted job {@code id} as {@code clusterId}. */
  QueueSettings sent(long id, String clusterId) {
    return new QueueSettings(maxRunning, drained, heldJobs, preempting, keptFor,
        ((PersistentMap<Long, String>) clusterIds).plus(id, clusterId), unreachable, overTold, perGpu);
  }

  /** Profile {@code profile}'s cluster does not answer, for {@code reason} (null: it answers again). */
  QueueSettings reach(String profile, String reason) {
    return new QueueSettings(maxRunning, drained, heldJobs, preempting, keptFor, clusterIds,
        with(unreachable, profile, reason), overTold, perGpu);
  }

  private static <V> Map<String, V> with(Map<String, V> m, String k, V v) {
    Map<String, V> copy = new HashMap<>(m);
    if (v == null) copy.remove(k);
    else copy.put(k, v);
    return copy;
  }
}

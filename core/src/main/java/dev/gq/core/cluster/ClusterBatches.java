package dev.gq.core.cluster;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which cluster jobs to send now and how: the jobs that wait and have no Slurm id yet, oldest first,
 * each once the jobs it waits for have theirs; jobs of one shape (profile, GPUs, time limit, start
 * time, group, retries, held or not; no dependencies and no {@code #SBATCH} lines of their own) go
 * as one array job of at most {@link #MAX_ARRAY} tasks, throttled by their group's
 * {@code --max-running}; the others go one by one. Pure.
 */
public final class ClusterBatches {
  private ClusterBatches() {}

  /** The most tasks one array gets (Slurm's default MaxArraySize is 1001). */
  public static final int MAX_ARRAY = 1000;

  /** One sbatch call: its profile, jobs, throttle (0: none), the Slurm jobs it waits for, and whether it starts held. */
  public record Batch(String profile, List<ClusterCell> cells, int throttle, List<String> afterAny, List<String> afterOk,
      boolean held) {}

  /** The live cluster jobs that wait for sbatch, oldest first, except {@code inFlight}. */
  public static List<Job> unsent(Ledger l, Set<Long> inFlight) {
    List<Job> out = new ArrayList<>();
    for (Job j : l.live().values())
      if (j.spec().onCluster() && j.state() == JobState.WAITING && !l.settings().clusterIds().containsKey(j.id())
          && !inFlight.contains(j.id()))
        out.add(j);
    out.sort(Comparator.comparingLong(Job::id));
    return out;
  }

  /** Whether Slurm should hold job {@code j} now: held by the user, its group held, or the whole queue held. */
  public static boolean held(Ledger l, Job j) {
    String g = j.spec().group();
    return l.queueHeld() || l.settings().heldJobs().contains(j.id()) || (g != null && l.holds().containsKey(g));
  }

  /** The sbatch calls for {@code cells} (loaded with their commands, oldest first); a cell whose prerequisite has no Slurm id yet waits. */
  public static List<Batch> plan(Ledger l, List<ClusterCell> cells) {
    List<Batch> out = new ArrayList<>();
    Map<List<Object>, List<ClusterCell>> arrays = new LinkedHashMap<>();
    for (ClusterCell c : cells) {
      Job j = l.live().get(c.jobId());
      if (j == null) continue;
      List<String> any = new ArrayList<>(), ok = new ArrayList<>();
      if (!prerequisites(l, c.spec(), any, ok)) continue;
      boolean held = held(l, j);
      if (!any.isEmpty() || !ok.isEmpty() || !c.sbatchLines().isEmpty()) {
        out.add(new Batch(c.spec().cluster(), List.of(c), 0, any, ok, held));
        continue;
      }
      arrays.computeIfAbsent(shape(c.spec(), held), k -> new ArrayList<>()).add(c);
    }
    for (List<ClusterCell> group : arrays.values()) {
      JobSpec s = group.get(0).spec();
      Integer cap = s.group() == null ? null : l.settings().maxRunning().get(s.group());
      boolean held = held(l, l.live().get(group.get(0).jobId()));
      for (int i = 0; i < group.size(); i += MAX_ARRAY)
        out.add(new Batch(s.cluster(), List.copyOf(group.subList(i, Math.min(group.size(), i + MAX_ARRAY))),
            cap == null ? 0 : cap, List.of(), List.of(), held));
    }
    return out;
  }

  private static List<Object> shape(JobSpec s, boolean held) {
    return Arrays.asList(s.cluster(), s.gpus(), s.timeLimit(), s.begin(), s.group(), s.retries(), held, s.gpuNeed());
  }

  /** Fills the Slurm ids {@code s} waits for; false when one of them has none yet. */
  private static boolean prerequisites(Ledger l, JobSpec s, List<String> any, List<String> ok) {
    for (Dependency d : s.after()) {
      Job p = l.live().get(d.jobId());
      if (p == null) continue; // ended: the ledger already settled what its end means for this job
      String id = l.settings().clusterIds().get(p.id());
      if (id == null) return false;
      (d.okOnly() ? ok : any).add(id);
    }
    return true;
  }

  /**
   * Why each waiting cluster job waits: what holds it here (as for this machine's jobs), else that
   * Slurm has it queued (by its id), else that it is about to be sent.
   */
  public static Map<Long, WaitReason> waitReasons(Ledger l) {
    Map<Long, WaitReason> out = new LinkedHashMap<>();
    for (Job j : l.live().values()) {
      WaitReason why = waitReason(l, j);
      if (why != null) out.put(j.id(), why);
    }
    return out;
  }

  /** Why job {@code j} waits, as {@link #waitReasons} says it; null when it is not a waiting cluster job. */
  public static WaitReason waitReason(Ledger l, Job j) {
    if (!j.spec().onCluster() || j.state() != JobState.WAITING) return null;
    WaitReason why = l.blocked(j);
    if (why != null) return why;
    String id = l.settings().clusterIds().get(j.id());
    return id == null ? new WaitReason.ToSlurm() : new WaitReason.SlurmQueued(id);
  }
}

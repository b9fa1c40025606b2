package dev.gq.cli;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * What the job table ({@link JobTable}) shows besides the jobs: why each waiting job waits, the held
 * groups, now (for ELAPSED), the running jobs' estimates (for PROGRESS), the waiting jobs' places in
 * the queue (for POS) and the running jobs' notes (for NOTE: idle, on an unwell GPU).
 */
record JobTableContext(Map<Long, WaitReason> waitReasons, Set<String> heldGroups, Instant now,
    Map<Long, Estimate> progress, Set<String> unreachable, Map<Long, Integer> positions,
    Map<Long, String> notes) {
  JobTableContext(Map<Long, WaitReason> waitReasons, Set<String> heldGroups, Instant now) {
    this(waitReasons, heldGroups, now, Map.of(), Set.of(), Map.of(), Map.of());
  }

  JobTableContext(Map<Long, WaitReason> waitReasons, Set<String> heldGroups, Instant now,
      Map<Long, Estimate> progress, Set<String> unreachable, Map<Long, Integer> positions) {
    this(waitReasons, heldGroups, now, progress, unreachable, positions, Map.of());
  }

  /** With why each waiting job waits. */
  JobTableContext withWaitReasons(Map<Long, WaitReason> r) {
    return new JobTableContext(r, heldGroups, now, progress, unreachable, positions, notes);
  }

  JobTableContext withProgress(Map<Long, Estimate> p) {
    return new JobTableContext(waitReasons, heldGroups, now, p, unreachable, positions, notes);
  }

  /** With the Slurm profiles whose clusters do not answer. */
  JobTableContext withUnreachable(Set<String> profiles) {
    return new JobTableContext(waitReasons, heldGroups, now, progress, Set.copyOf(profiles), positions, notes);
  }

  /** With each waiting job's place in the queue (POS). */
  JobTableContext withPositions(Map<Long, Integer> p) {
    return new JobTableContext(waitReasons, heldGroups, now, progress, unreachable, Map.copyOf(p), notes);
  }

  /** With each running job's note (NOTE): idle, or on an unwell GPU. */
  JobTableContext withNotes(Map<Long, String> n) {
    return new JobTableContext(waitReasons, heldGroups, now, progress, unreachable, positions, Map.copyOf(n));
  }

  /** The state to show: HELD for a waiting job of a held group. */
  static String state(Job job, Set<String> heldGroups) {
    boolean held = job.state() == JobState.WAITING && job.spec().group() != null && heldGroups.contains(job.spec().group());
    return held ? "HELD" : job.state().name();
  }

  /** As {@link #state(Job, Set)}; UNKNOWN for a live job Slurm holds whose cluster does not answer. */
  String state(Job job) {
    if (job.clusterId() != null && !job.state().terminal() && unreachable.contains(job.spec().cluster())) return "UNKNOWN";
    return state(job, heldGroups);
  }
}

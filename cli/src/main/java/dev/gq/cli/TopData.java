package dev.gq.cli;

import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one screen shows, gathered by {@link TopReads}: every live job and the newest ended
 * ones, and in {@code whole} (by id) the whole records of those read whole: the others are as the
 * scheduler holds them, without their commands, enough to count, filter and place them (null
 * {@code whole}: every job is whole); why each shown waiting job waits.
 */
record TopData(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
    Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
    Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
    List<StoredEvent> events, Job logJob, List<String> log, GqApi.WhoReport who, Map<Long, Job> whole) {
  /** A screen whose jobs are all whole records. */
  TopData(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
      Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
      Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
      List<StoredEvent> events, Job logJob, List<String> log, GqApi.WhoReport who) {
    this(now, zone, gpus, traces, processes, jobs, waits, progress, idle, heldGroups, queueHeld, groups, events, logJob, log, who,
        null);
  }

  /** A screen without everyone's part of the machine (a daemon that does not say). */
  TopData(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
      Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
      Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
      List<StoredEvent> events, Job logJob, List<String> log) {
    this(now, zone, gpus, traces, processes, jobs, waits, progress, idle, heldGroups, queueHeld, groups, events, logJob, log, null);
  }

  /** Whether job {@code id} was read whole. */
  boolean isWhole(long id) {
    return whole == null || whole.containsKey(id);
  }

  /** Listed job {@code j} as its whole record, when it was read whole; else as it is. */
  Job whole(Job j) {
    return whole == null ? j : whole.getOrDefault(j.id(), j);
  }

  /** Job {@code id}, whole when it was read whole (as every running one is), looked for in the list otherwise; null when neither has it. */
  Job find(long id) {
    if (whole != null && whole.containsKey(id)) return whole.get(id);
    for (Job j : jobs) if (j.id() == id) return j;
    return null;
  }

  /** What gq notices about the running jobs: idle since when, on which unwell GPU. */
  JobHints hints() {
    return new JobHints(idle, gpus.unwell(), now);
  }
}

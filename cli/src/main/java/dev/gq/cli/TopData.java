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

/** Everything one screen of {@code gq top} shows ({@link TopScreen} draws it), gathered by {@link TopCommand} in one pass. */
record TopData(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
    Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
    Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
    List<StoredEvent> events, Job logJob, List<String> log, GqApi.WhoReport who) {
  /** A screen without everyone's part of the machine (a daemon that does not say). */
  TopData(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
      Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
      Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
      List<StoredEvent> events, Job logJob, List<String> log) {
    this(now, zone, gpus, traces, processes, jobs, waits, progress, idle, heldGroups, queueHeld, groups, events, logJob, log, null);
  }

  /** What gq notices about the running jobs: idle since when, on which unwell GPU. */
  JobHints hints() {
    return new JobHints(idle, gpus.unwell(), now);
  }
}

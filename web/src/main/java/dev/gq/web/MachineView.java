package dev.gq.web;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * One look at what the page shows, read through the same daemon calls as {@code gq gpu},
 * {@code gq who}, {@code gq ps} and {@code gq groups} ({@link ViewReads}): the GPUs with their
 * figures and the processes they list, everyone's part of the machine (null from a daemon that does
 * not say), this user's live jobs and newest ended ones with why each waiting one waits and how far
 * each running one has got, the groups, and whether the queue is held. Rendering it is pure.
 */
record MachineView(Instant now, ZoneId zone, String user, GqApi.GpuReport gpus, Map<Long, ProcessView> processes,
    GqApi.WhoReport who, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
    List<GroupSummary> groups, boolean queueHeld) {
  MachineView {
    processes = Map.copyOf(processes);
    jobs = List.copyOf(jobs);
    waits = Map.copyOf(waits);
    progress = Map.copyOf(progress);
    groups = List.copyOf(groups);
  }
}

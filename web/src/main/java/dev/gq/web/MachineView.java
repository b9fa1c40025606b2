package dev.gq.web;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One look at what the page shows, read through the same daemon calls as {@code gq gpu},
 * {@code gq who}, {@code gq ps} and {@code gq groups} ({@link ViewReads}): the GPUs with their
 * figures and the processes they list, everyone's part of the machine (null from a daemon that does
 * not say), this user's live jobs listed (the active ones and the oldest waiting ones) and newest
 * ended ones with why each waiting one waits and how far each running one has got, every live job
 * counted by state ({@code liveCounts}: the listed ones are a part of it), the groups, and whether
 * the queue is held. Rendering it is pure.
 */
record MachineView(Instant now, ZoneId zone, String user, GqApi.GpuReport gpus, Map<Long, ProcessView> processes,
    GqApi.WhoReport who, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
    List<GroupSummary> groups, boolean queueHeld, Map<JobState, Integer> liveCounts) {
  MachineView {
    processes = Map.copyOf(processes);
    jobs = List.copyOf(jobs);
    waits = Map.copyOf(waits);
    progress = Map.copyOf(progress);
    groups = List.copyOf(groups);
    liveCounts = Map.copyOf(liveCounts);
  }

  /** A view that lists every live job: the counts are those of the listed ones. */
  MachineView(Instant now, ZoneId zone, String user, GqApi.GpuReport gpus, Map<Long, ProcessView> processes,
      GqApi.WhoReport who, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
      List<GroupSummary> groups, boolean queueHeld) {
    this(now, zone, user, gpus, processes, who, jobs, waits, progress, groups, queueHeld, counted(jobs));
  }

  private static Map<JobState, Integer> counted(List<Job> jobs) {
    Map<JobState, Integer> out = new EnumMap<>(JobState.class);
    for (Job j : jobs) if (!j.state().terminal()) out.merge(j.state(), 1, Integer::sum);
    return out;
  }

  /** How many live jobs are in {@code state}, listed or not. */
  int live(JobState state) {
    return liveCounts.getOrDefault(state, 0);
  }

  /** How many waiting jobs the list leaves out. */
  int waitingNotListed() {
    int listed = 0;
    for (Job j : jobs) if (j.state() == JobState.WAITING) listed++;
    return Math.max(0, live(JobState.WAITING) - listed);
  }
}

package dev.gq.core.report;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.util.Map;

/**
 * One row of a usage report, for one GPU (named by its UUID, with its NVML index) or one group (or all
 * of them, named "all"; no index): the GPU-hours gq's jobs held
 * in the period, how many jobs ended in it by end state (every terminal state, zeros included), how
 * many started in it and their median and 90th-percentile wait from submission to start (null when
 * none started), and, for a GPU, the hours an outside process held it and the hours it was idle
 * (null for a group, and for a GPU when the daemon recorded nothing of the period).
 */
public record UsageRow(String name, Integer gpuIndex, double gpuHours, Map<JobState, Integer> ended, int started, Duration waitMedian,
    Duration waitP90, Double outsideHours, Double idleHours) {
  public UsageRow {
    ended = Map.copyOf(ended);
  }

  public int ended(JobState s) {
    return ended.getOrDefault(s, 0);
  }
}

package dev.gq.persistence;

import dev.gq.core.job.JobState;
import java.util.Map;

/**
 * One group's jobs counted by state over each cell's latest attempt (a job replaced by a retry, or
 * by a later job with the same key, is not counted), and {@code retried}: how many were replaced.
 */
public record GroupCounts(String group, Map<JobState, Integer> counts, int retried) {
  public GroupCounts {
    counts = Map.copyOf(counts);
  }
}

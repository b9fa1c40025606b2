package dev.gq.core.notify;

import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.Map;

/**
 * What the history knows of one group: its jobs counted by state over each cell's latest attempt,
 * and when its first job started (or was submitted, when none started) and its last one ended.
 */
public record GroupFacts(String group, Map<JobState, Integer> counts, Instant first, Instant lastEnd) {
  public GroupFacts {
    counts = Map.copyOf(counts);
  }

  /** Jobs not yet ended (waiting, starting, running, being stopped, orphaned). */
  public int live() {
    return counts.entrySet().stream().filter(e -> !e.getKey().terminal()).mapToInt(Map.Entry::getValue).sum();
  }

  /** Jobs ended, over latest attempts. */
  public int ended() {
    return counts.entrySet().stream().filter(e -> e.getKey().terminal()).mapToInt(Map.Entry::getValue).sum();
  }
}

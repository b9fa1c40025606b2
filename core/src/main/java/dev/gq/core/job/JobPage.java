package dev.gq.core.job;

import java.util.List;

/**
 * Jobs read from the history for one query, newest first, and the ids of matching rows whose
 * record could not be read (skipped, so that one damaged row never hides the others).
 * {@link #rows()} counts both, and {@link #lowestId()} is where the next page starts.
 */
public record JobPage(List<Job> jobs, List<Long> unreadable) {
  public JobPage {
    jobs = List.copyOf(jobs);
    unreadable = List.copyOf(unreadable);
  }

  /** How many rows matched: the jobs read and those skipped. */
  public int rows() {
    return jobs.size() + unreadable.size();
  }

  /** The lowest id among the rows (read or not); 0 when there were none. */
  public long lowestId() {
    long low = Long.MAX_VALUE;
    for (Job j : jobs) low = Math.min(low, j.id());
    for (long id : unreadable) low = Math.min(low, id);
    return low == Long.MAX_VALUE ? 0 : low;
  }
}

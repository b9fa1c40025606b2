package dev.gq.persistence;

import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A selection of jobs from the read side: id ranges (inclusive [low, high] pairs, any of them),
 * states (any of them), a group, and a limit (0 = none). Empty lists mean "any". {@code latestOnly}
 * leaves out attempts that a retry replaced; {@code belowId} (0 = none) keeps ids below it, for
 * reading newest-first in pages; {@code endedBefore} (null = any) keeps jobs that ended before it.
 */
public record JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit,
    boolean latestOnly, long belowId, Instant endedBefore) {
  public JobQuery {
    ranges = List.copyOf(ranges);
    states = Set.copyOf(states);
  }

  public JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit) {
    this(ranges, states, group, limit, false, 0, null);
  }
}

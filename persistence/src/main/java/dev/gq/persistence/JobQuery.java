package dev.gq.persistence;

import dev.gq.core.job.JobState;
import java.util.List;
import java.util.Set;

/**
 * A selection of jobs from the read side: id ranges (inclusive [low, high] pairs, any of them),
 * states (any of them), a group, and a limit (0 = none). Empty lists mean "any".
 */
public record JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit) {
  public JobQuery {
    ranges = List.copyOf(ranges);
    states = Set.copyOf(states);
  }
}

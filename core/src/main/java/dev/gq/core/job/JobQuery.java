package dev.gq.core.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A selection of jobs from the history: id ranges (inclusive [low, high] pairs, any of them),
 * states (any of them), a group (null: any), and a limit (0: none). Empty lists mean "any".
 * {@code latestOnly} leaves out attempts a later one replaced ({@link Attempts#replaces});
 * {@code belowId} (0: none) keeps ids below it, to read newest-first in pages; {@code endedBefore}
 * (null: any) keeps jobs that ended before it. The CLI asks with it and the history answers it.
 */
public record JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit,
    boolean latestOnly, long belowId, Instant endedBefore) {
  public JobQuery {
    ranges = List.copyOf(ranges);
    states = Set.copyOf(states);
  }

  /** Every attempt, no page, no end bound. */
  public JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit) {
    this(ranges, states, group, limit, false, 0, null);
  }

  /** The same selection, at most {@code n} jobs with ids below {@code id}: the next page. */
  public JobQuery page(long id, int n) {
    return new JobQuery(ranges, states, group, n, latestOnly, id, endedBefore);
  }

  /** The jobs among {@code ids} in {@code states} (empty: any), the ids asked as the fewest ranges of consecutive ids. */
  public static JobQuery ids(Collection<Long> ids, Set<JobState> states) {
    List<Long> sorted = new ArrayList<>(ids);
    sorted.sort(null);
    List<long[]> ranges = new ArrayList<>();
    for (long id : sorted) {
      long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
      if (last != null && (last[1] == id || last[1] + 1 == id)) last[1] = id;
      else ranges.add(new long[] {id, id});
    }
    return new JobQuery(ranges, states, null, 0);
  }
}

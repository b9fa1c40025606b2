package dev.gq.core.report;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The running figures of one row of a {@link Usage} report: GPU time held, jobs ended by state, and
 * the waits of the jobs started, from which the median and 90th percentile are taken by nearest rank.
 * The waits are the one part that grows with the jobs: they are kept as milliseconds in a growable
 * {@code long[]}, 8 bytes (at most 12 while the array grows) per job started in the period, not a
 * {@link Duration} per job; exact enough, since the history keeps times to the millisecond.
 */
final class RowTally {
  private static final long[] NONE = {};
  private Duration held = Duration.ZERO;
  private final Map<JobState, Integer> ended = new EnumMap<>(JobState.class);
  private long[] waits = NONE;
  private int started;

  void add(JobSpan j, Duration gpuTime, Period p) {
    held = held.plus(gpuTime);
    if (j.state().terminal() && p.contains(j.end())) ended.merge(j.state(), 1, Integer::sum);
    if (p.contains(j.start()) && j.submit() != null) {
      Duration w = Duration.between(j.submit(), j.start());
      addWait(w.isNegative() ? 0 : millis(w));
    }
  }

  private void addWait(long millis) {
    if (started == waits.length) waits = Arrays.copyOf(waits, Math.max(8, started + (started >> 1)));
    waits[started++] = millis;
  }

  /** {@code d} in whole milliseconds; the longest a long holds for a wait beyond it (no real one is). */
  private static long millis(Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  UsageRow row(String name, Integer gpuIndex, Double outside, Double idle) {
    Map<JobState, Integer> all = new EnumMap<>(JobState.class);
    for (JobState s : JobState.values()) if (s.terminal()) all.put(s, ended.getOrDefault(s, 0));
    Arrays.sort(waits, 0, started);
    return new UsageRow(name, gpuIndex, Period.hours(held), all, started, quantile(0.5), quantile(0.9), outside, idle);
  }

  /** The {@code q} quantile (0 < q <= 1) of the sorted waits by nearest rank; null when none. */
  private Duration quantile(double q) {
    if (started == 0) return null;
    int rank = (int) Math.ceil(q * started);
    return Duration.ofMillis(waits[Math.min(started, Math.max(1, rank)) - 1]);
  }
}

package dev.gq.core.recovery;

import java.util.Arrays;

/**
 * A set of job ids kept as runs of consecutive ids ({@code [first, last]} pairs, ascending), so
 * that the ids of 100,000 jobs' files cost a few pairs, not 100,000 longs, for the daemon's life.
 */
public final class JobIdRanges {
  private final long[] bounds;

  private JobIdRanges(long[] bounds) {
    this.bounds = bounds;
  }

  /** The ranges of {@code ids} (any order, repeats allowed). */
  public static JobIdRanges of(long[] ids) {
    long[] sorted = Arrays.stream(ids).sorted().distinct().toArray();
    long[] out = new long[2 * sorted.length];
    int n = 0;
    for (long id : sorted) {
      if (n > 0 && out[n - 1] == id - 1) out[n - 1] = id;
      else {
        out[n++] = id;
        out[n++] = id;
      }
    }
    return new JobIdRanges(Arrays.copyOf(out, n));
  }

  /** How many ids are at or past {@code from}. */
  public long countFrom(long from) {
    long count = 0;
    for (int i = 0; i < bounds.length; i += 2)
      if (bounds[i + 1] >= from) count += bounds[i + 1] - Math.max(bounds[i], from) + 1;
    return count;
  }

  /** The lowest id at or past {@code from}, or 0 when none is. */
  public long firstFrom(long from) {
    for (int i = 0; i < bounds.length; i += 2)
      if (bounds[i + 1] >= from) return Math.max(bounds[i], from);
    return 0;
  }

  /** The highest id, or 0 when there is none. */
  public long last() {
    return bounds.length == 0 ? 0 : bounds[bounds.length - 1];
  }

  public boolean contains(long id) {
    for (int i = 0; i < bounds.length; i += 2)
      if (id >= bounds[i] && id <= bounds[i + 1]) return true;
    return false;
  }
}

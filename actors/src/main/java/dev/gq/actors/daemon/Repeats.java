package dev.gq.actors.daemon;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which log lines to write when the same one comes again and again: the first of a run is written,
 * the same line within {@code window} after it is not (only counted), and the first one after the
 * window is written again together with how many were left out. Remembers the {@value #KEYS} most
 * recent lines. Pure and synchronized; {@link RepeatFilter} applies it to the daemon's log.
 */
final class Repeats {
  static final int KEYS = 256;

  /** Whether to write this line, and how many of the same were left out before it (0: none). */
  record Verdict(boolean write, long leftOut) {}

  private record Run(long startNanos, long leftOut) {}

  private final long windowNanos;
  private final Map<String, Run> runs = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Run> eldest) {
      return size() > KEYS;
    }
  };

  Repeats(long windowNanos) {
    this.windowNanos = windowNanos;
  }

  synchronized Verdict seen(String line, long nowNanos) {
    Run run = runs.get(line);
    if (run != null && nowNanos - run.startNanos() < windowNanos) {
      runs.put(line, new Run(run.startNanos(), run.leftOut() + 1));
      return new Verdict(false, 0);
    }
    runs.put(line, new Run(nowNanos, 0));
    return new Verdict(true, run == null ? 0 : run.leftOut());
  }
}

package dev.gq.core.progress;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The moments at which gq saw a job's progress change, kept by the caller per job between
 * readings, from which the rate comes when a source gives none of its own. Only changes are
 * kept (at most {@link #MAX_SAMPLES}, none older than {@link #WINDOW} beyond the newest two), and
 * a new source, a new total or a count that went back starts the history over. The rate is the
 * progress between two seen moments divided by the time between them, never the progress divided
 * by the time since the job started: a run resumed at step 9,000 of 10,000 has made no progress
 * that gq saw until its count moves. The first sample is the moment gq first saw the count, not
 * when the count was reached, so once two changes have been seen the rate counts from the older
 * change. Immutable.
 */
public record ProgressHistory(Source source, long total, List<Sample> samples) {
  /** How many changes are kept. */
  public static final int MAX_SAMPLES = 16;
  /** How far back changes count towards the rate, once there are more than two. */
  public static final Duration WINDOW = Duration.ofMinutes(30);
  /** No progress seen yet. */
  public static final ProgressHistory EMPTY = new ProgressHistory(null, 0, List.of());

  /** The count seen at a moment; {@code change} when it differed from the count seen before. */
  public record Sample(Instant at, long current, boolean change) {}

  public ProgressHistory {
    samples = List.copyOf(samples);
  }

  /** This history with {@code r}, read at {@code now}, taken into account. */
  public ProgressHistory with(Reading r, Instant now) {
    boolean sameRun = r.source() == source && r.total() == total && !samples.isEmpty();
    if (!sameRun || r.current() < latest().current()) {
      return new ProgressHistory(r.source(), r.total(), List.of(new Sample(now, r.current(), false)));
    }
    if (r.current() == latest().current()) return this;
    List<Sample> kept = new ArrayList<>(samples);
    kept.add(new Sample(now, r.current(), true));
    while (kept.size() > MAX_SAMPLES || kept.size() > 2 && kept.get(0).at().isBefore(now.minus(WINDOW))) {
      kept.remove(0);
    }
    return new ProgressHistory(source, total, kept);
  }

  /** Units per second between the two moments the rate counts from, or NaN when unknown. */
  public double ratePerSecond() {
    if (samples.size() < 2) return Double.NaN;
    Sample from = samples.get(0);
    if (!from.change() && samples.size() > 2) from = samples.get(1);
    Sample to = latest();
    double seconds = Duration.between(from.at(), to.at()).toMillis() / 1000.0;
    return seconds > 0 ? (to.current() - from.current()) / seconds : Double.NaN;
  }

  private Sample latest() {
    return samples.get(samples.size() - 1);
  }
}

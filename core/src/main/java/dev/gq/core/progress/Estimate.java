package dev.gq.core.progress;

import dev.gq.core.job.Durations;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * How far a running job has got and how long it has left: {@code current} of {@code total}
 * ({@code total} 0 and {@code percent} NaN when the source does not know the total), the rate in
 * units per second (NaN when unknown), the time remaining (null when unknown) and the source it
 * came from. Made by {@link Estimator}; {@link #column} is what {@code gq ps} shows.
 */
public record Estimate(long current, long total, double percent, double ratePerSecond, Duration remaining, Source source) {

  /** The PROGRESS column of {@code gq ps}: {@code 53% ETA 1h24m}, {@code 53%}, or blank. */
  public String column() {
    if (Double.isNaN(percent)) return "";
    String p = (int) Math.floor(percent) + "%";
    return remaining == null ? p : p + " ETA " + Durations.format(coarse(remaining));
  }

  /** {@code d} rounded down to what a glance needs: seconds under an hour, minutes under a day, then hours. */
  static Duration coarse(Duration d) {
    if (d.compareTo(Duration.ofHours(1)) < 0) return d.truncatedTo(ChronoUnit.SECONDS);
    if (d.compareTo(Duration.ofDays(1)) < 0) return d.truncatedTo(ChronoUnit.MINUTES);
    return d.truncatedTo(ChronoUnit.HOURS);
  }
}

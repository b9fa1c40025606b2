package dev.gq.core.progress;

import java.time.Duration;

/**
 * What one source says about a job's progress at one reading: {@code current} of {@code total}
 * units ({@code total} 0 when the source does not know it, otherwise {@code 0 <= current <=
 * total}), and the rate and remaining time when the source gives its own ({@code NaN} and null
 * otherwise; only tqdm does). Pure data, made by the parsers in this package.
 */
public record Reading(Source source, long current, long total, double ratePerSecond, Duration remaining) {
  public Reading {
    if (current < 0 || total < 0 || (total > 0 && current > total)) {
      throw new IllegalArgumentException("progress " + current + "/" + total + " out of range");
    }
  }

  /** A reading with no rate or remaining time of its own. */
  public static Reading of(Source source, long current, long total) {
    return new Reading(source, current, total, Double.NaN, null);
  }

  /** Whether the total is known, so a percentage and a remaining time can follow. */
  public boolean hasTotal() {
    return total > 0;
  }
}

package dev.gq.core.report;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The half-open span of time a report covers, {@code [from, to)}; {@code from} is before {@code to}. */
public record Period(Instant from, Instant to) {
  public Period {
    if (!from.isBefore(to)) throw new IllegalArgumentException("a period ends after it begins: " + from + " .. " + to);
  }

  /** How much of {@code [start, end)} lies in this period ({@code end} null: still going at {@code to}); zero when none. */
  public Duration overlap(Instant start, Instant end) {
    if (start == null) return Duration.ZERO;
    Instant s = start.isAfter(from) ? start : from;
    Instant e = end == null || end.isAfter(to) ? to : end;
    return e.isAfter(s) ? Duration.between(s, e) : Duration.ZERO;
  }

  /** Whether {@code at} lies in this period. */
  public boolean contains(Instant at) {
    return at != null && !at.isBefore(from) && at.isBefore(to);
  }

  /**
   * This period, or from {@code firstUse} (cut to the minute) when that lies inside it: a report of
   * a box that has been in use for a day is not mostly empty. {@code firstUse} null: this period.
   */
  public Period fromFirstUse(Instant firstUse) {
    if (firstUse == null) return this;
    Instant minute = firstUse.truncatedTo(ChronoUnit.MINUTES);
    return minute.isAfter(from) && minute.isBefore(to) ? new Period(minute, to) : this;
  }

  /** Hours in {@code d}, as a report shows them. */
  public static double hours(Duration d) {
    return d.toMillis() / 3_600_000.0;
  }
}

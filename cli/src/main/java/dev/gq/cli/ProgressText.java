package dev.gq.cli;

import dev.gq.core.job.Durations;
import dev.gq.core.progress.Estimate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * How {@code gq eta} and {@code gq show} write a running job's {@link Estimate}: the count
 * ({@code 530/1000 (53%)}, or the count alone when the total is unknown), the rate ({@code 2.5/s},
 * or {@code 40s each} when slower than one a second), the time left ({@code 1h24m}), the estimated
 * finish on the caller's wall clock, and the source's name; "-" for what is unknown.
 */
final class ProgressText {
  private ProgressText() {}

  static String count(Estimate e) {
    if (Double.isNaN(e.percent())) return String.valueOf(e.current());
    return e.current() + "/" + e.total() + " (" + (int) Math.floor(e.percent()) + "%)";
  }

  static String rate(Estimate e) {
    double r = e.ratePerSecond();
    if (Double.isNaN(r) || r <= 0) return "-";
    if (r >= 1) return String.format(Locale.ROOT, "%.1f/s", r);
    return Durations.format(Duration.ofSeconds(Math.max(1, Math.round(1 / r)))) + " each";
  }

  static String remaining(Estimate e) {
    return e.remaining() == null ? "-" : Durations.format(e.remaining().truncatedTo(ChronoUnit.SECONDS));
  }

  /** When the job should finish at this rate, to the second; null when unknown. */
  static Instant finish(Estimate e, Instant now) {
    return e.remaining() == null ? null : now.plus(e.remaining()).truncatedTo(ChronoUnit.SECONDS);
  }

  /** One line for {@code gq show}: {@code 530/1000 (53%), 2.5/s, 1h24m left, finishes about T (tqdm)}. */
  static String line(Estimate e, Instant now, ZoneId zone) {
    StringBuilder s = new StringBuilder(count(e));
    if (!rate(e).equals("-")) s.append(", ").append(rate(e));
    if (e.remaining() != null) {
      s.append(", ").append(remaining(e)).append(" left, finishes about ").append(Times.format(finish(e, now), zone));
    }
    return s.append(" (").append(e.source().label()).append(')').toString();
  }
}

package dev.gq.cli;

import dev.gq.core.job.Durations;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Map;

/**
 * When a job may start ({@code --begin WHEN}): a duration from now ({@code 30m}, {@code 2h}), a
 * time of day ({@code 16:00}: today, or tomorrow once it has passed), or a date and time
 * ({@code 2026-12-01T08:00}, in the caller's zone: {@code TZ}, else the machine's; or with an
 * offset such as {@code Z}), at most 365 days away ({@link Durations#LONGEST}). Pure.
 */
final class BeginTime {
  private BeginTime() {}

  static final String FORMS = "a duration (30m, 2h), a time of day (16:00) or a date and time (2026-12-01T08:00)";

  /** The moment {@code text} names, or null when it names none (or a duration past 365 days). */
  static Instant parse(String text, Instant now, ZoneId zone) {
    String t = text.strip();
    Duration d = Durations.parse(t);
    if (d != null) return d.compareTo(Durations.LONGEST) > 0 ? null : now.plus(d);
    try {
      if (t.matches("\\d{1,2}:\\d{2}")) {
        LocalTime at = LocalTime.parse(t.length() == 4 ? "0" + t : t);
        ZonedDateTime today = now.atZone(zone).with(at);
        return (today.toInstant().isAfter(now) ? today : today.plusDays(1)).toInstant();
      }
      if (t.matches(".*(Z|[+-]\\d{2}:\\d{2})$")) return OffsetDateTime.parse(t).toInstant();
      return LocalDateTime.parse(t).atZone(zone).toInstant();
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** {@code --begin}'s moment; a usage error naming the forms when it is none. */
  static Instant option(String text, Instant now, Map<String, String> env) {
    if (text == null) return null;
    String far = "--begin must be within " + Durations.days(Durations.LONGEST) + " of now, not '" + text + "'";
    Duration d = Durations.parse(text.strip());
    if (d != null && d.compareTo(Durations.LONGEST) > 0) throw new UsageException(far);
    Instant at = parse(text, now, Times.zone(env));
    if (at == null) throw new UsageException("--begin takes " + FORMS + ", not '" + text + "'");
    // gq's timers and stored times hold any moment within a year either way; a past one starts at once
    if (Duration.between(now, at).abs().compareTo(Durations.LONGEST) > 0) throw new UsageException(far);
    return at;
  }
}

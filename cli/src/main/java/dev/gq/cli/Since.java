package dev.gq.cli;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code --since} value: an ISO-8601 time with a zone ({@code 2026-11-29T10:00:00Z},
 * {@code 2026-11-29T11:00+01:00}), one without (in the caller's zone), a date (its midnight in the
 * caller's zone), or an age before now ({@code 90s}, {@code 10m}, {@code 2h}, {@code 3d}), from
 * 1970-01-01 to 9999-12-31. Pure;
 * anything else is a {@link UsageException} that shows the accepted forms.
 */
final class Since {
  private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhd])");
  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Instant LAST = Instant.parse("9999-12-31T23:59:59Z");

  private Since() {}

  static Instant parse(String text, Instant now, ZoneId zone) {
    return parse(text, now, zone, "--since");
  }

  /** The same for option {@code option} ({@code --until}), which the messages name. */
  static Instant parse(String text, Instant now, ZoneId zone, String option) {
    String t = text.strip();
    try {
      Matcher age = AGE.matcher(t);
      if (age.matches()) return bounded(now.minus(age(Long.parseLong(age.group(1)), age.group(2))), text, option);
      if (DATE.matcher(t).matches()) return bounded(LocalDate.parse(t).atStartOfDay(zone).toInstant(), text, option);
      if (t.indexOf('T') > 0) return bounded(dateTime(t, zone), text, option);
    } catch (DateTimeException | ArithmeticException e) {
      // Falls through to the one message that shows every accepted form.
    }
    throw new UsageException("invalid time '" + text + "' for " + option + "; use an ISO-8601 time (2026-11-29T10:00:00Z),"
        + " a date (2026-11-29) or an age (10m, 2h, 3d)");
  }

  /** {@code at}, when it is from 1970 to the year 9999: a time the journal's clock can hold (a future one matches nothing yet). */
  private static Instant bounded(Instant at, String text, String option) {
    if (at.isBefore(Instant.EPOCH) || at.isAfter(LAST))
      throw new UsageException(option + " must be between 1970-01-01 and 9999-12-31, not '" + text + "'");
    return at;
  }

  private static Duration age(long n, String unit) {
    return switch (unit) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  private static Instant dateTime(String t, ZoneId zone) {
    boolean zoned = t.endsWith("Z") || t.endsWith("z") || t.lastIndexOf('+') > t.indexOf('T')
        || t.lastIndexOf('-') > t.indexOf('T');
    if (zoned) return OffsetDateTime.parse(t.endsWith("z") ? t.substring(0, t.length() - 1) + "Z" : t).toInstant();
    return LocalDateTime.parse(t).atZone(zone).toInstant();
  }
}

package dev.gq.cli;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;

/**
 * Formats instants for people: local date and time to the second, in the caller's time zone
 * (their TZ variable when it names a zone, else the machine's), or "-" for a time not yet reached.
 */
final class Times {
  /** Four-digit years, and a later year as a plain number (never "+10000"). */
  private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
      .appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL).appendPattern("-MM-dd HH:mm:ss").toFormatter(Locale.ROOT);

  private Times() {}

  static ZoneId zone(Map<String, String> env) {
    String tz = env.get("TZ");
    if (tz != null && !tz.isBlank()) {
      try {
        return ZoneId.of(tz.startsWith(":") ? tz.substring(1) : tz);
      } catch (DateTimeException e) {
        // A POSIX rule or file path that java.time cannot read: the machine's zone is the best guess.
      }
    }
    return ZoneId.systemDefault();
  }

  static String format(Instant t, ZoneId zone) {
    return t == null ? "-" : FORMAT.format(t.atZone(zone));
  }
}

package dev.gq.cli;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * Formats instants for people: local date and time to the second, in the caller's time zone
 * (their TZ variable when it names a zone, else the machine's), or "-" for a time not yet reached.
 */
final class Times {
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

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

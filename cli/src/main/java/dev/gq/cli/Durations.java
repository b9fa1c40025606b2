package dev.gq.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the durations users type for {@code --time}, {@code --timeout} and
 * {@code --older-than}: whole counts with a unit, largest unit first, each unit at most once
 * ({@code 30s}, {@code 45m}, {@code 2h}, {@code 3d}, {@code 2w}, {@code 1h30m}). Fractions, bare
 * numbers, signs, zero and unknown units are refused. Pure.
 */
final class Durations {
  private static final Pattern FORM =
      Pattern.compile("(?:(\\d{1,9})w)?(?:(\\d{1,9})d)?(?:(\\d{1,9})h)?(?:(\\d{1,9})m)?(?:(\\d{1,9})s)?");
  private static final long[] SECONDS = {7 * 86400L, 86400L, 3600L, 60L, 1L};
  private static final String[] UNITS = {"w", "d", "h", "m", "s"};

  private Durations() {}

  /** The duration {@code text} means, or null when it is not one (see {@link #problem}). */
  static Duration parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = FORM.matcher(t);
    if (t.isEmpty() || !m.matches()) return null;
    long total = 0;
    for (int i = 0; i < SECONDS.length; i++) {
      if (m.group(i + 1) != null) total += Long.parseLong(m.group(i + 1)) * SECONDS[i];
    }
    return total > 0 ? Duration.ofSeconds(total) : null;
  }

  /** The one line that says why {@code text} is not a duration; {@code where} ("for --time") may be empty. */
  static String problem(String text, String where) {
    return "invalid duration '" + text + "'" + where + "; use a count and a unit such as 30m, 2h, 3d";
  }

  /** A duration given as an option's value; anything else is a usage error naming the option. */
  static Duration option(String option, String text) {
    if (text == null) return null;
    Duration d = parse(text);
    if (d == null) throw new UsageException(problem(text, " for " + option));
    return d;
  }

  /** {@code d} the way it is typed: 1h30m, 2d, 45s. */
  static String format(Duration d) {
    long left = d.getSeconds();
    if (left == 0) return "0s";
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < SECONDS.length; i++) {
      long n = left / SECONDS[i];
      if (n > 0) sb.append(n).append(UNITS[i]);
      left %= SECONDS[i];
    }
    return sb.toString();
  }
}

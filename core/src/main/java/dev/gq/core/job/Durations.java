package dev.gq.core.job;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the durations users type for {@code --time}, {@code --timeout} and
 * {@code --older-than}: whole counts with a unit, largest unit first, each unit at most once
 * ({@code 30s}, {@code 45m}, {@code 2h}, {@code 3d}, {@code 2w}, {@code 1h30m}). Fractions, bare
 * numbers, signs, zero and unknown units are refused. Every duration gq shows (time limits, the
 * gather wait, timeouts, ages) is written by {@link #format}. How long gq is asked to wait for
 * something (a time limit, a timeout, a grace, a start) is at most {@link #LONGEST}, how far back to
 * look (an age) at most {@link #OLDEST} ({@link #tooLong}): gq's timers and stored times hold
 * either with room to spare. Pure.
 */
public final class Durations {
  private static final Pattern FORM =
      Pattern.compile("(?:(\\d{1,9})w)?(?:(\\d{1,9})d)?(?:(\\d{1,9})h)?(?:(\\d{1,9})m)?(?:(\\d{1,9})s)?");
  private static final long[] SECONDS = {7 * 86400L, 86400L, 3600L, 60L, 1L};
  private static final String[] UNITS = {"w", "d", "h", "m", "s"};

  /** The longest time limit, timeout, grace or wait before a start: 365 days. */
  public static final Duration LONGEST = Duration.ofDays(365);
  /** The oldest age to look back to ({@code gq clean --older-than}): 36,500 days, about 100 years. */
  public static final Duration OLDEST = Duration.ofDays(36_500);

  private Durations() {}

  /**
   * Why {@code d} (typed as {@code text}) is too long for {@code what} ("--time"), in one line:
   * "--time must be at most 365 days, not '999999w'"; null when it is at most {@code max}.
   */
  public static String tooLong(Duration d, Duration max, String what, String text) {
    return d.compareTo(max) <= 0 ? null : what + " must be at most " + days(max) + ", not '" + text + "'";
  }

  /** {@code max} in days, as the bounds are said: "365 days". */
  public static String days(Duration max) {
    return String.format(Locale.ROOT, "%,d days", max.toDays());
  }

  /** The duration {@code text} means, or null when it is not one (see {@link #problem}). */
  public static Duration parse(String text) {
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
  public static String problem(String text, String where) {
    return "invalid duration '" + text + "'" + where + "; use a count and a unit such as 30m, 2h, 3d";
  }

  /** {@code d} the way it is typed: 1h30m, 2d, 45s; less than a second in milliseconds (250ms). */
  public static String format(Duration d) {
    long left = d.getSeconds();
    if (left == 0) return d.isZero() ? "0s" : d.toMillis() + "ms";
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < SECONDS.length; i++) {
      long n = left / SECONDS[i];
      if (n > 0) sb.append(n).append(UNITS[i]);
      left %= SECONDS[i];
    }
    return sb.toString();
  }
}

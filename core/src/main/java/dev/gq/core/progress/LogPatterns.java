package dev.gq.core.progress;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Progress written as plain log lines: {@code Step a/b}, {@code [a/b]}, {@code Epoch a/b} and
 * {@code Iteration a of b}, in any letter case. The newest line with a match wins; within a line
 * the first pattern, in that order, whose numbers satisfy {@code 0 <= a <= b} and {@code b > 1}.
 * A bare percentage is never read: it is as likely to be "dropout 10%" as progress. Pure.
 */
public final class LogPatterns {
  private static final List<Pattern> PATTERNS = List.of(
      Pattern.compile("\\bstep\\s*(\\d{1,15})\\s*/\\s*(\\d{1,15})", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\[\\s*(\\d{1,15})\\s*/\\s*(\\d{1,15})\\s*]"),
      Pattern.compile("\\bepoch\\s*(\\d{1,15})\\s*/\\s*(\\d{1,15})", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\biteration\\s+(\\d{1,15})\\s+of\\s+(\\d{1,15})", Pattern.CASE_INSENSITIVE));

  private LogPatterns() {}

  /** The reading in the newest of {@code segments} that has one, or null. */
  public static Reading newest(List<String> segments) {
    for (int i = segments.size() - 1; i >= 0; i--) {
      Reading r = inLine(segments.get(i));
      if (r != null) return r;
    }
    return null;
  }

  /** The reading in one line, or null. */
  static Reading inLine(String line) {
    for (Pattern p : PATTERNS) {
      Matcher m = p.matcher(line);
      while (m.find()) {
        long a = Long.parseLong(m.group(1));
        long b = Long.parseLong(m.group(2));
        if (a <= b && b > 1) return Reading.of(Source.LOG_PATTERN, a, b);
      }
    }
    return null;
  }
}

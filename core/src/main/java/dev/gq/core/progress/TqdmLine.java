package dev.gq.core.progress;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises one tqdm status line, {@code desc: NN%|bar| n/total [elapsed<remaining, rate]} or,
 * for a bar without a total, {@code desc: n unit [elapsed, rate]}: counts with tqdm's unit
 * scaling ({@code 1.20k}, {@code 3.40M}), rates as {@code 5.00it/s}, {@code 300kB/s} or
 * {@code 2.50s/it}, and {@code ?} for what tqdm does not know yet. Terminal escapes are ignored.
 * Pure.
 */
public final class TqdmLine {
  private static final String COUNT = "(\\d+(?:\\.\\d+)?[kMGTPEZY]?)";
  private static final String TIME = "((?:\\d+:)?\\d+:\\d\\d|\\?)";
  private static final Pattern WITH_TOTAL = Pattern.compile(
      "^(.*?)\\d{1,3}%\\|[^|]*\\|\\s*" + COUNT + "/" + COUNT + "\\s*\\[" + TIME + "<" + TIME + ",\\s*([^,\\]]*)");
  private static final Pattern WITHOUT_TOTAL = Pattern.compile(
      "^(?:(.*?): )?\\s*" + COUNT + "[A-Za-z]* \\[" + TIME + ",\\s*([^,\\]<]*)");
  private static final Pattern ESCAPE = Pattern.compile("\u001b\\[[0-9;?]*[A-Za-z]");
  private static final Pattern PER_SECOND = Pattern.compile("(\\d+(?:\\.\\d+)?)([kMGTPEZY]?)\\S*/s");
  private static final Pattern SECONDS_PER = Pattern.compile("(\\d+(?:\\.\\d+)?)([kMGTPEZY]?)s/\\S+");
  private static final String PREFIXES = "kMGTPEZY";

  /**
   * One bar's state: {@code key} names the bar (its description and total, so the ranks of a
   * distributed run that print the same bar are one bar), {@code total} is 0 when unknown, the
   * rate is {@code NaN} and remaining null where tqdm printed {@code ?}.
   */
  public record Bar(String key, long current, long total, double ratePerSecond, Duration remaining) {
    /** Whether the bar has reached its total. */
    public boolean finished() {
      return total > 0 && current >= total;
    }

    /** This bar as a reading of the tqdm source. */
    public Reading reading() {
      return new Reading(Source.TQDM, total > 0 ? Math.min(current, total) : current, total, ratePerSecond, remaining);
    }
  }

  private TqdmLine() {}

  /** The bar in {@code segment} (one piece of a log split at CR and LF), or null when it is none. */
  public static Bar parse(String segment) {
    String s = segment.indexOf('\u001b') < 0 ? segment : ESCAPE.matcher(segment).replaceAll("");
    Matcher m = WITH_TOTAL.matcher(s);
    if (m.find()) {
      long total = count(m.group(3));
      if (total <= 0) return null;
      String key = description(m.group(1)) + "|" + m.group(3);
      return new Bar(key, count(m.group(2)), total, rate(m.group(6)), time(m.group(5)));
    }
    m = WITHOUT_TOTAL.matcher(s);
    if (m.find()) {
      String rate = m.group(4).strip();
      if (!rate.startsWith("?") && Double.isNaN(rate(rate))) return null;
      String key = description(m.group(1) == null ? "" : m.group(1)) + "|";
      return new Bar(key, count(m.group(2)), 0, rate(m.group(4)), null);
    }
    return null;
  }

  private static String description(String prefix) {
    String d = prefix.strip();
    return d.endsWith(":") ? d.substring(0, d.length() - 1).strip() : d;
  }

  /** A count as tqdm prints it, scaled by its SI prefix. */
  static long count(String text) {
    char last = text.charAt(text.length() - 1);
    int prefix = PREFIXES.indexOf(last);
    String digits = prefix >= 0 ? text.substring(0, text.length() - 1) : text;
    return Math.round(Double.parseDouble(digits) * Math.pow(1000, prefix + 1));
  }

  /** Units per second from tqdm's rate text, or NaN when it is {@code ?} or not a rate. */
  static double rate(String text) {
    String t = text.strip();
    Matcher m = PER_SECOND.matcher(t);
    if (m.matches()) return scaled(m.group(1), m.group(2));
    m = SECONDS_PER.matcher(t);
    if (m.matches()) {
      double seconds = scaled(m.group(1), m.group(2));
      return seconds > 0 ? 1 / seconds : Double.NaN;
    }
    return Double.NaN;
  }

  private static double scaled(String digits, String prefix) {
    int p = prefix.isEmpty() ? -1 : PREFIXES.indexOf(prefix.charAt(0));
    return Double.parseDouble(digits) * Math.pow(1000, p + 1);
  }

  /** A tqdm interval ({@code mm:ss} or {@code h:mm:ss}), or null for {@code ?}. */
  static Duration time(String text) {
    if (text.equals("?")) return null;
    long seconds = 0;
    for (String part : text.split(":")) seconds = seconds * 60 + Long.parseLong(part);
    return Duration.ofSeconds(seconds);
  }
}

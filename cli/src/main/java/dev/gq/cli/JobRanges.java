package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses job selectors typed by the user: a job id ({@code 12}), an inclusive range
 * ({@code 300-440}) or several of them joined by commas ({@code 12,14,20-25}). Pure; a malformed
 * selector is a {@link UsageException} naming it.
 */
final class JobRanges {
  private static final Pattern ID = Pattern.compile("\\d{1,18}");
  private static final Pattern RANGE = Pattern.compile("(\\d{1,18})-(\\d{1,18})");

  private JobRanges() {}

  /** All selectors as {@code {first, last}} pairs, in the order given. */
  static List<long[]> parseAll(List<String> selectors) {
    List<long[]> ranges = new ArrayList<>();
    for (String selector : selectors) {
      for (String part : selector.split(",", -1)) ranges.add(parse(part, selector));
    }
    return ranges;
  }

  /** Every id the selectors name, in order; a range longer than 1,000 ids is a usage error naming {@code verb}. */
  static List<Long> expand(List<String> selectors, String verb) {
    List<Long> ids = new ArrayList<>();
    for (long[] r : parseAll(selectors)) {
      if (r[1] - r[0] > 1000) throw new UsageException("the range " + r[0] + "-" + r[1] + " is too long to " + verb + "; name the jobs");
      for (long id = r[0]; id <= r[1]; id++) ids.add(id);
    }
    return ids;
  }

  /** One job id; anything else (a range, a word) is a usage error. */
  static long id(String text) {
    String t = text.trim();
    if (!ID.matcher(t).matches()) {
      throw new UsageException("invalid job id '" + text + "'; use a number like 12");
    }
    return Long.parseLong(t);
  }

  /** Whether {@code text} is one plain job id. */
  static boolean isPlainId(String text) {
    return ID.matcher(text.trim()).matches();
  }

  /** Ids as the user would type them: runs of consecutive ids as ranges ("1-3, 5, 9-10"). */
  static String format(List<Long> ids) {
    List<Long> sorted = ids.stream().sorted().distinct().toList();
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < sorted.size(); ) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) j++;
      parts.add(i == j ? String.valueOf(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
      i = j + 1;
    }
    return String.join(", ", parts);
  }

  private static long[] parse(String part, String whole) {
    String t = part.trim();
    if (ID.matcher(t).matches()) {
      long id = Long.parseLong(t);
      return new long[] {id, id};
    }
    Matcher m = RANGE.matcher(t);
    if (!m.matches()) {
      throw new UsageException("invalid job id or range '" + whole + "'; use a number like 12 or 300-440");
    }
    long first = Long.parseLong(m.group(1));
    long last = Long.parseLong(m.group(2));
    if (first > last) {
      throw new UsageException("invalid range '" + t + "': the first id must not exceed the second");
    }
    return new long[] {first, last};
  }
}

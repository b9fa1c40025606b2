package dev.gq.core.progress;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the progress file a job may write ({@code $GQ_PROGRESS_FILE}): {@code current total} on
 * one line, two whole numbers with {@code 0 <= current <= total} and {@code total > 0}. Anything
 * else (a half-written file, a second line, text) is no reading. Pure: the caller reads the file.
 */
public final class ProgressFile {
  private static final Pattern LINE = Pattern.compile("\\s*(\\d{1,18})[ \\t]+(\\d{1,18})\\s*");

  private ProgressFile() {}

  /** The reading in {@code content}, or null when it holds none. */
  public static Reading parse(String content) {
    if (content == null) return null;
    Matcher m = LINE.matcher(content);
    if (!m.matches()) return null;
    long current = Long.parseLong(m.group(1));
    long total = Long.parseLong(m.group(2));
    if (total <= 0 || current > total) return null;
    return Reading.of(Source.PROGRESS_FILE, current, total);
  }
}

package dev.gq.core.progress;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the last {@link #MAX_BYTES} of a log hold, parsed: the newest line of each tqdm bar
 * and the newest log-pattern line, each with the offset in the log where its line starts. Kept per
 * job between readings, so that a log that only grew is read and parsed from where the previous
 * reading stopped (the start of its last line, which may have been cut short then), not all 64
 * KiB again; lines that fall out of the window are dropped, so the result is that of parsing the
 * window whole. A log that shrank, or grew past a whole window, is read afresh. Pure.
 */
public record LogWindow(long end, long lastStart, List<Line<TqdmLine.Bar>> bars, Line<Reading> pattern) {
  /** How much of a log's end is read ({@link LogTail}). */
  public static final int MAX_BYTES = 64 * 1024;
  /** A window over no log: the next reading is a fresh one. */
  public static final LogWindow EMPTY = new LogWindow(-1, -1, List.of(), null);

  /** One parsed line and the offset where it starts. */
  public record Line<T>(long at, T value) {}

  public LogWindow {
    bars = List.copyOf(bars);
  }

  /** A window over {@code tail}, a log's last bytes; {@code cut} when they start mid-file (the first piece is then skipped). */
  public static LogWindow of(byte[] tail, boolean cut) {
    int from = Math.max(0, tail.length - MAX_BYTES);
    byte[] last = from == 0 ? tail : Arrays.copyOfRange(tail, from, tail.length);
    return EMPTY.parse(last, 0, false, cut || from > 0);
  }

  /**
   * Where the next reading of this log, now {@code size} bytes long, starts: where this one's last
   * line starts, when the log only grew and that is within a window of its end; else the start of
   * its last window.
   */
  public long readFrom(long size) {
    if (end >= 0 && size >= end && size - lastStart <= MAX_BYTES) return lastStart;
    return Math.max(0, size - MAX_BYTES);
  }

  /**
   * This window after {@code bytes}, read from offset {@code from} to the log's end: continued when
   * {@code from} is where this window's last line starts, else a fresh window (its first piece
   * skipped when {@code from > 0}, as it may be the end of a line).
   */
  public LogWindow advance(byte[] bytes, long from) {
    boolean continued = end >= 0 && from == lastStart;
    return parse(bytes, from, continued, !continued && from > 0);
  }

  private LogWindow parse(byte[] bytes, long from, boolean continued, boolean skipFirst) {
    Map<String, Line<TqdmLine.Bar>> byKey = new LinkedHashMap<>();
    Line<Reading> newestPattern = null;
    if (continued) {
      for (Line<TqdmLine.Bar> b : bars) if (b.at() < from) byKey.put(b.value().key(), b);
      if (pattern != null && pattern.at() < from) newestPattern = pattern;
    }
    long newEnd = from + bytes.length;
    long newLast = from;
    int start = 0;
    boolean skip = skipFirst;
    for (int i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] != '\r' && bytes[i] != '\n') continue;
      if (i < bytes.length) newLast = from + i + 1;
      if (!skip && i > start) {
        String s = new String(bytes, start, i - start, StandardCharsets.UTF_8);
        TqdmLine.Bar bar = s.isBlank() ? null : TqdmLine.parse(s);
        if (bar != null) {
          byKey.remove(bar.key());
          byKey.put(bar.key(), new Line<>(from + start, bar));
        } else if (!s.isBlank()) {
          Reading r = LogPatterns.inLine(s);
          if (r != null) newestPattern = new Line<>(from + start, r);
        }
      }
      skip = false;
      start = i + 1;
    }
    // what a fresh read of the last window keeps: the lines after its first piece (a line that
    // starts right at the window's start is skipped there too, as it may be the end of a line)
    long windowStart = newEnd - MAX_BYTES;
    List<Line<TqdmLine.Bar>> kept = new ArrayList<>();
    for (Line<TqdmLine.Bar> b : byKey.values()) if (windowStart <= 0 || b.at() > windowStart) kept.add(b);
    kept.sort(Comparator.comparingLong(Line::at));
    if (newestPattern != null && windowStart > 0 && newestPattern.at() <= windowStart) newestPattern = null;
    return new LogWindow(newEnd, newLast, kept, newestPattern);
  }
}

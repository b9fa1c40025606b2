package dev.gq.host.proc;

import dev.gq.core.proc.ProcInfo;

/**
 * Parser of one /proc/PID/stat line into a {@link ProcInfo}. The command name (field 2) may hold
 * spaces and parentheses, so it runs from the first '(' to the LAST ')'; the numbered fields are
 * counted after it (state is field 3, start time in clock ticks field 22). Pure: takes text.
 */
public final class ProcStat {

  private static final int STATE = 3;
  private static final int PPID = 4;
  private static final int PGRP = 5;
  private static final int SESSION = 6;
  private static final int START_TIME = 22;

  private ProcStat() {}

  /**
   * Parses a stat line.
   *
   * @throws IllegalArgumentException when the line is not a stat line (truncated, no comm)
   */
  public static ProcInfo parse(String statLine) {
    int open = statLine.indexOf('(');
    int close = statLine.lastIndexOf(')');
    if (open < 1 || close < open) throw new IllegalArgumentException("no command name in stat line");
    String[] fields = fields(statLine, close + 1, START_TIME - STATE + 1);
    if (fields == null || fields[0].length() != 1) throw new IllegalArgumentException("truncated stat line");
    try {
      return new ProcInfo(
          Long.parseLong(statLine.substring(0, open).strip()),
          number(fields, PPID),
          number(fields, PGRP),
          number(fields, SESSION),
          number(fields, START_TIME),
          fields[0].charAt(0),
          statLine.substring(open + 1, close));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number in stat line: " + e.getMessage(), e);
    }
  }

  /**
   * The first {@code count} space-separated fields of {@code line} from {@code from} on, or null
   * when there are fewer. By hand, not with a regex: a scan of /proc parses hundreds of lines.
   */
  private static String[] fields(String line, int from, int count) {
    String[] out = new String[count];
    int n = 0;
    int i = from;
    int end = line.length();
    while (end > i && Character.isWhitespace(line.charAt(end - 1))) end--;
    while (n < count) {
      while (i < end && line.charAt(i) == ' ') i++;
      if (i >= end) return null;
      int start = i;
      while (i < end && line.charAt(i) != ' ') i++;
      out[n++] = line.substring(start, i);
    }
    return out;
  }

  // Field n (1-based, as in proc(5)) sits at index n - 3 of the fields after the command name.
  private static long number(String[] fields, int field) {
    return Long.parseLong(fields[field - STATE]);
  }
}

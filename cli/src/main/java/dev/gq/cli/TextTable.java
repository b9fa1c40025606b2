package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: a header row and rows of cells, columns padded and separated by two spaces.
 * The last column is cut with "…" so each line fits the terminal width (it always keeps a few
 * characters). Cells are single-line strings: characters that could break or reorder a line
 * (controls, line separators, bidirectional overrides) are shown escaped; the table never wraps.
 */
final class TextTable {
  static final String ELLIPSIS = "…";
  private static final int LAST_MIN = 12;
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  void add(List<String> cells) {
    if (cells.size() != headers.size()) throw new IllegalArgumentException("row has " + cells.size() + " cells");
    rows.add(cells.stream().map(PrintableText::escape).toList());
  }

  /** Prints the table; {@code width} at most this many characters a line (0 or less: no limit). */
  void print(PrintWriter out, int width) {
    print(out, width, null, true);
  }

  /**
   * Prints the rows, and the header when {@code header}, with columns at least as wide as
   * {@code atLeast} (null: as wide as the cells): one page of a long list that keeps the columns
   * of the pages before. Returns the widths used, for the next page.
   */
  int[] print(PrintWriter out, int width, int[] atLeast, boolean header) {
    int[] widths = widths(atLeast);
    int last = headers.size() - 1;
    int before = 0;
    for (int i = 0; i < last; i++) before += widths[i] + 2;
    int room = width > 0 ? Math.max(LAST_MIN, width - before) : Integer.MAX_VALUE;
    if (header) out.println(line(headers, widths, room));
    for (List<String> row : rows) out.println(line(row, widths, room));
    return widths;
  }

  private int[] widths(int[] atLeast) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) widths[i] = Math.max(headers.get(i).length(), atLeast == null ? 0 : atLeast[i]);
    for (List<String> row : rows) {
      for (int i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], row.get(i).length());
    }
    return widths;
  }

  private static String line(List<String> cells, int[] widths, int room) {
    StringBuilder sb = new StringBuilder();
    int last = cells.size() - 1;
    for (int i = 0; i < last; i++) {
      String cell = cells.get(i);
      sb.append(cell).append(" ".repeat(widths[i] - cell.length() + 2));
    }
    sb.append(cut(cells.get(last), room));
    return sb.toString().stripTrailing();
  }

  /** The width to fit tables to: the terminal's, or no limit when output goes to a pipe or file. */
  static int width(Io io) {
    if (!io.stdoutTty()) return 0;
    return io.width() > 0 ? io.width() : 80;
  }

  /** {@code text} cut to at most {@code max} characters, ending in "…" when cut. */
  static String cut(String text, int max) {
    if (text.length() <= max) return text;
    if (max <= 1) return ELLIPSIS;
    return text.substring(0, max - 1) + ELLIPSIS;
  }
}

package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A plain-text table: a header row and rows of cells, columns padded and separated by two spaces.
 * Given a width, no line is longer: the columns that may shrink give up characters, widest first,
 * down to their narrowest (their cells cut with "…"), and a line still too long is cut at the
 * width. Cells are single-line strings: characters that could break or reorder a line (controls,
 * line separators, bidirectional overrides) are shown escaped; the table never wraps. A paint
 * function may colour a column's cells once they are cut and before they are padded.
 */
final class TextTable {
  static final String ELLIPSIS = "…";
  private static final int LAST_MIN = 12;
  private final List<Column> columns;
  private final List<List<String>> rows = new ArrayList<>();
  private final UnaryOperator<String>[] paints;
  /** Columns whose cells are cut in the middle, keeping both ends (names that differ at the end). */
  private final boolean[] middle;
  /** Each column's widest cell or header, kept as rows are added. */
  private final int[] natural;

  /** A column: its header and the narrowest it may be cut to so that a line fits (0: never cut). */
  record Column(String header, int min) {
    Column {
      if (min > 0) min = Math.max(min, header.length());
    }
  }

  /** A table whose last column shrinks to fit (down to a few characters) and whose others keep their width. */
  TextTable(List<String> headers) {
    this(columns(headers).toArray(Column[]::new));
  }

  @SuppressWarnings("unchecked")
  private TextTable(Column[] columns) {
    this.columns = List.of(columns);
    this.paints = new UnaryOperator[columns.length];
    this.middle = new boolean[columns.length];
    this.natural = new int[columns.length];
    for (int i = 0; i < columns.length; i++) natural[i] = columns[i].header().length();
  }

  /** A table of these columns, each shrinking to its own narrowest when a line must fit. */
  static TextTable of(List<Column> columns) {
    return new TextTable(columns.toArray(Column[]::new));
  }

  private static List<Column> columns(List<String> headers) {
    List<Column> c = new ArrayList<>();
    for (int i = 0; i < headers.size(); i++) c.add(new Column(headers.get(i), i == headers.size() - 1 ? LAST_MIN : 0));
    return c;
  }

  /** Colours column {@code i}'s cells (never the header) with {@code paint}, which must not change what is visible. */
  void paint(int i, UnaryOperator<String> paint) {
    paints[i] = paint;
  }

  /**
   * Cuts column {@code i}'s cells in the middle when they must be cut ({@code lr-swe…-v2}), so that
   * names that share a long beginning (a sweep's versions) stay told apart.
   */
  void cutInMiddle(int i) {
    middle[i] = true;
  }

  void add(List<String> cells) {
    if (cells.size() != columns.size()) throw new IllegalArgumentException("row has " + cells.size() + " cells");
    List<String> row = cells.stream().map(PrintableText::escape).toList();
    for (int i = 0; i < natural.length; i++) widen(i, row.get(i).length());
    rows.add(row);
  }

  /** Makes column {@code i} at least {@code chars} wide, as a row with a cell that long would: a table measured page by page. */
  void widen(int i, int chars) {
    natural[i] = Math.max(natural[i], chars);
  }

  /** The widths {@link #print} uses for the rows added and widened so far, fitted to {@code width} (0 or less: no limit). */
  int[] fittedWidths(int width) {
    int[] widths = widths(null, width > 0);
    if (width > 0) fit(widths, width);
    return widths;
  }

  /** Prints the table; {@code width} at most this many characters a line (0 or less: no limit). */
  void print(PrintWriter out, int width) {
    print(out, width, null, true);
  }

  /**
   * Prints the rows, and the header when {@code header}, in the widths an earlier page returned
   * ({@code atLeast}; null for the first page): one page of a long list that keeps the columns of
   * the pages before. Returns the widths used, for the next page.
   */
  int[] print(PrintWriter out, int width, int[] atLeast, boolean header) {
    int[] widths = widths(atLeast, width > 0);
    if (width > 0) fit(widths, width);
    if (header) out.println(line(headers(), widths, width, false));
    for (List<String> row : rows) out.println(line(row, widths, width, true));
    return widths;
  }

  /** Prints the header in {@code widths}, which {@link #fittedWidths} gave for the whole table. */
  void printHeader(PrintWriter out, int width, int[] widths) {
    out.println(line(headers(), widths, width, false));
  }

  /**
   * Prints a row of {@code cells} (escaped here, as {@link #add} does) in {@code widths}, which
   * {@link #fittedWidths} gave for the whole table: a table printed row by row, keeping no row.
   */
  void printRow(PrintWriter out, String[] cells, int width, int[] widths) {
    if (cells.length != columns.size()) throw new IllegalArgumentException("row has " + cells.length + " cells");
    for (int i = 0; i < cells.length; i++) cells[i] = PrintableText.escape(cells[i]);
    out.println(line(Arrays.asList(cells), widths, width, true));
  }

  /**
   * Whether column {@code i} shows its every cell whole on lines fitted to {@code width} (0 or less:
   * no limit), in the widths of the page before ({@code atLeast}).
   */
  boolean showsWhole(int i, int width, int[] atLeast) {
    if (width <= 0) return true;
    int[] widths = widths(atLeast, true);
    fit(widths, width);
    int start = 0;
    for (int c = 0; c < i; c++) start += widths[c] + 2;
    return widths[i] >= natural[i] && start + natural[i] <= width;
  }

  /** How wide a line is with no column cut. */
  int naturalWidth() {
    int[] widths = widths(null, false);
    int total = 2 * (widths.length - 1);
    for (int w : widths) total += w;
    return total;
  }

  private List<String> headers() {
    return columns.stream().map(Column::header).toList();
  }

  /** The widths of the cells; a fitted page keeps the earlier page's width for a column that may shrink. */
  private int[] widths(int[] atLeast, boolean fitted) {
    int[] widths = natural.clone();
    for (int i = 0; i < widths.length; i++) {
      if (atLeast == null) continue;
      widths[i] = fitted && columns.get(i).min() > 0 ? atLeast[i] : Math.max(widths[i], atLeast[i]);
    }
    return widths;
  }

  /** Narrows the widest column that may still shrink, one character at a time, until a line fits. */
  private void fit(int[] widths, int width) {
    int total = 2 * (widths.length - 1);
    for (int w : widths) total += w;
    while (total > width) {
      int widest = -1;
      for (int i = 0; i < widths.length; i++) {
        if (widths[i] > columns.get(i).min() && columns.get(i).min() > 0 && (widest < 0 || widths[i] > widths[widest])) widest = i;
      }
      if (widest < 0) return;
      widths[widest]--;
      total--;
    }
  }

  private String line(List<String> cells, int[] widths, int width, boolean painted) {
    StringBuilder sb = new StringBuilder();
    int visible = 0;
    int last = cells.size() - 1;
    for (int i = 0; i <= last; i++) {
      if (width > 0 && visible >= width) break;
      String cell = middle[i] ? cutMiddle(cells.get(i), widths[i]) : cut(cells.get(i), widths[i]);
      if (width > 0 && visible + widths[i] > width) {
        // a column that is never cut (a count, an id) is left out whole rather than shown in part
        if (columns.get(i).min() == 0 && i > 0 && i < last) break;
        cell = middle[i] ? cutMiddle(cells.get(i), width - visible) : cut(cell, width - visible);
      }
      sb.append(painted && paints[i] != null && !cell.isEmpty() ? paints[i].apply(cell) : cell);
      visible += cell.length();
      if (i == last) break;
      int pad = Math.min(widths[i] - cell.length() + 2, width > 0 ? width - visible : Integer.MAX_VALUE);
      sb.repeat(' ', pad);
      visible += pad;
    }
    // as String.stripTrailing, without copying the line twice
    int end = sb.length();
    while (end > 0 && Character.isWhitespace(sb.charAt(end - 1))) end--;
    sb.setLength(end);
    return sb.toString();
  }

  /** The width to fit tables to: the terminal's, or no limit when output goes to a pipe or file. */
  static int width(Io io) {
    if (!io.stdoutTty()) return 0;
    return io.width() > 0 ? io.width() : 80;
  }

  /** {@code text} cut to at most {@code max} characters by leaving out its middle ("…" in its place), the end kept a little shorter than the beginning. */
  static String cutMiddle(String text, int max) {
    if (text.length() <= max) return text;
    if (max <= 2) return cut(text, max);
    int tail = (max - 1) / 2;
    int head = max - 1 - tail;
    return text.substring(0, head) + ELLIPSIS + text.substring(text.length() - tail);
  }

  /** {@code text} cut to at most {@code max} characters, ending in "…" when cut. */
  static String cut(String text, int max) {
    if (text.length() <= max) return text;
    if (max <= 1) return ELLIPSIS;
    return text.substring(0, max - 1) + ELLIPSIS;
  }
}

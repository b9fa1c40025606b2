package dev.gq.cli;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job table of {@code gq ps}: the chosen {@link JobColumn}s (by default JOB, STATE, GPUS, NAME,
 * COMMAND, and GROUP, WAIT, ELAPSED, NOTE and EXIT where a listed job has something there), fitted to the
 * terminal's width and never cut when the output is not a terminal. STATE says HELD for a waiting
 * job of a held group and may be coloured. Long lists are printed in pages that keep the first
 * page's columns. When the width cuts COMMAND, NAME tells unnamed jobs apart
 * ({@link JobColumn#tellingName}).
 */
final class JobTable {
  private JobTable() {}

  /** How the table looks: its columns, whether to print the header, and whether to colour states. */
  record Layout(List<JobColumn> columns, boolean header, boolean colour) {
    Layout {
      columns = List.copyOf(columns);
    }
  }


  /**
   * Prints one page in {@code layout}, fitted to {@code width} (0: no limit), in the widths of the
   * page before ({@code before}; null for the first, which prints the header when the layout has
   * one); returns the widths used.
   */
  static int[] print(List<Job> jobs, Layout layout, JobTableContext ctx, PrintWriter out, int width, int[] before) {
    TextTable table = table(jobs, layout, ctx, false);
    // without COMMAND whole on the line, NAME tells unnamed jobs apart by their arguments
    if (cutsCommand(table, layout, width, before)) table = table(jobs, layout, ctx, true);
    return table.print(out, width, before, before == null && layout.header());
  }

  /**
   * A page of a table whose widths were measured over every page before any was printed
   * ({@link Widths}): the header when {@code first} and the layout has one; NAME telling unnamed
   * jobs apart when {@code telling}, as {@link Widths#telling} decided for every page alike.
   */
  static int[] print(List<Job> jobs, Layout layout, JobTableContext ctx, PrintWriter out, int width, int[] before, boolean first,
      boolean telling) {
    TextTable table = table(layout);
    JobColumn[] columns = layout.columns().toArray(JobColumn[]::new);
    if (telling) table.cutInMiddle(layout.columns().indexOf(JobColumn.NAME));
    if (first && layout.header()) table.printHeader(out, width, before);
    String[] cells = new String[columns.length];
    for (Job job : jobs) {
      for (int i = 0; i < columns.length; i++)
        cells[i] = telling && columns[i] == JobColumn.NAME ? JobColumn.tellingName(job) : columns[i].cell(job, ctx);
      table.printRow(out, cells, width, before);
    }
    return before;
  }

  private static boolean cutsCommand(TextTable table, Layout layout, int width, int[] before) {
    int command = layout.columns().indexOf(JobColumn.COMMAND);
    return command >= 0 && layout.columns().contains(JobColumn.NAME) && !table.showsWhole(command, width, before);
  }

  private static TextTable table(Layout layout) {
    List<JobColumn> columns = layout.columns();
    TextTable table = TextTable.of(columns.stream().map(c -> new TextTable.Column(c.header, c.min)).toList());
    int state = columns.indexOf(JobColumn.STATE);
    if (layout.colour() && state >= 0) table.paint(state, Colour::state);
    int group = columns.indexOf(JobColumn.GROUP);
    if (group >= 0) table.cutInMiddle(group);
    return table;
  }

  private static TextTable table(List<Job> jobs, Layout layout, JobTableContext ctx, boolean telling) {
    List<JobColumn> columns = layout.columns();
    TextTable table = table(layout);
    if (telling) table.cutInMiddle(columns.indexOf(JobColumn.NAME));
    for (Job job : jobs)
      table.add(columns.stream().map(c -> telling && c == JobColumn.NAME ? JobColumn.tellingName(job) : c.cell(job, ctx)).toList());
    return table;
  }

  /**
   * The widest cell of each column over jobs measured a page at a time, keeping no row: a table
   * printed page by page in {@link #fitted} widths is the one a whole list prints.
   */
  static final class Widths {
    private final int[] natural = new int[JobColumn.values().length];
    private int tellingName;

    /**
     * Measures {@code columns} over {@code jobs}, and NAME as it tells unnamed jobs apart when
     * {@code telling} (only a terminal may cut COMMAND).
     */
    void measure(List<Job> jobs, List<JobColumn> columns, JobTableContext ctx, boolean telling) {
      JobColumn[] cs = columns.toArray(JobColumn[]::new);
      for (Job job : jobs) {
        for (JobColumn c : cs) natural[c.ordinal()] = Math.max(natural[c.ordinal()], c.width(job, ctx));
        if (telling) tellingName = Math.max(tellingName, PrintableText.escape(JobColumn.tellingName(job)).length());
      }
    }

    /** Makes column {@code c} at least {@code chars} wide. */
    void widen(JobColumn c, int chars) {
      natural[c.ordinal()] = Math.max(natural[c.ordinal()], chars);
    }

    /** Whether the whole table of {@code layout} cuts COMMAND at {@code width}, so NAME tells unnamed jobs apart. */
    boolean telling(Layout layout, int width) {
      return cutsCommand(widened(layout, false), layout, width, null);
    }

    /**
     * The widths the whole table of {@code layout} prints in, fitted to {@code width}; with no limit
     * (0) the last column is neither cut nor padded, so it is left unbounded rather than measured.
     */
    int[] fitted(Layout layout, int width) {
      int[] widths = widened(layout, telling(layout, width)).fittedWidths(width);
      if (width <= 0 && widths.length > 0) widths[widths.length - 1] = Integer.MAX_VALUE / 2;
      return widths;
    }

    private TextTable widened(Layout layout, boolean telling) {
      TextTable table = table(layout);
      for (int i = 0; i < layout.columns().size(); i++) {
        JobColumn c = layout.columns().get(i);
        table.widen(i, telling && c == JobColumn.NAME ? tellingName : natural[c.ordinal()]);
      }
      return table;
    }
  }

  /** The state to show: HELD for a waiting job of a held group. */
  static String state(Job job, Set<String> heldGroups) {
    boolean held = job.state() == JobState.WAITING && job.spec().group() != null && heldGroups.contains(job.spec().group());
    return held ? "HELD" : job.state().name();
  }

  /** As {@link #state(Job, Set)}; UNKNOWN for a live job Slurm holds whose cluster does not answer. */
  static String state(Job job, JobTableContext ctx) {
    if (job.clusterId() != null && !job.state().terminal() && ctx.unreachable().contains(job.spec().cluster())) return "UNKNOWN";
    return state(job, ctx.heldGroups());
  }
}

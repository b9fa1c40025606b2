package dev.gq.cli;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The job table of {@code gq ps}: JOB, STATE (HELD for a waiting job of a held group), GPUS, PID,
 * GROUP (only when a listed job has one), NAME, WAIT (only when a listed job waits: why, from the
 * scheduler) and COMMAND, cut to fit the terminal. GPUS lists the indices a job holds or held,
 * else the count it asks for in parentheses ("-" for a job without GPUs). Long lists are printed
 * in pages that keep the first page's columns.
 */
final class JobTable {
  private static final int LABEL_WIDTH = 24;
  private static final int WAIT_WIDTH = 40;

  private JobTable() {}

  /** Which optional columns a table has: GROUP and WAIT. */
  record Layout(boolean groups, boolean waits) {
    /** The columns {@code jobs} need. */
    static Layout of(List<Job> jobs) {
      return new Layout(jobs.stream().anyMatch(j -> j.spec().group() != null),
          jobs.stream().anyMatch(j -> j.state() == JobState.WAITING));
    }
  }

  /** What the table shows besides the jobs: why each waiting job waits, and the held groups. */
  record Context(Map<Long, String> waitReasons, Set<String> heldGroups) {}

  static void print(List<Job> jobs, Context ctx, PrintWriter out, int width) {
    print(jobs, Layout.of(jobs), ctx, out, width, null, true);
  }

  /** Prints one page in {@code layout}, keeping at least the column widths {@code atLeast}; returns the widths used. */
  static int[] print(List<Job> jobs, Layout layout, Context ctx, PrintWriter out, int width, int[] atLeast, boolean header) {
    TextTable table = new TextTable(headers(layout.groups(), layout.waits()));
    for (Job job : jobs) table.add(row(job, layout.groups(), layout.waits(), ctx));
    return table.print(out, width, atLeast, header);
  }

  /** The state to show: HELD for a waiting job of a held group. */
  static String state(Job job, Set<String> heldGroups) {
    boolean held = job.state() == JobState.WAITING && job.spec().group() != null && heldGroups.contains(job.spec().group());
    return held ? "HELD" : job.state().name();
  }

  private static List<String> headers(boolean groups, boolean waits) {
    List<String> h = new ArrayList<>(List.of("JOB", "STATE", "GPUS", "PID"));
    if (groups) h.add("GROUP");
    h.add("NAME");
    if (waits) h.add("WAIT");
    h.add("COMMAND");
    return h;
  }

  private static List<String> row(Job job, boolean groups, boolean waits, Context ctx) {
    List<String> r = new ArrayList<>();
    r.add(String.valueOf(job.id()));
    r.add(state(job, ctx.heldGroups()));
    r.add(gpus(job));
    r.add(job.pid() == null ? "-" : String.valueOf(job.pid()));
    if (groups) r.add(job.spec().group() == null ? "-" : TextTable.cut(job.spec().group(), LABEL_WIDTH));
    r.add(TextTable.cut(job.displayName(), LABEL_WIDTH));
    if (waits) r.add(wait(job, ctx.waitReasons()));
    r.add(ShellQuote.join(job.spec().argv()));
    return r;
  }

  static String gpus(Job job) {
    if (!job.gpus().isEmpty()) {
      return job.gpus().stream()
          .sorted(Comparator.comparingInt(GpuSlot::index))
          .map(s -> String.valueOf(s.index()))
          .collect(Collectors.joining(","));
    }
    return job.spec().gpus() == 0 ? "-" : "(" + job.spec().gpus() + ")";
  }

  private static String wait(Job job, Map<Long, String> reasons) {
    if (job.state() != JobState.WAITING) return "-";
    String reason = reasons.get(job.id());
    return reason == null || reason.isBlank() ? "-" : TextTable.cut(oneLine(reason), WAIT_WIDTH);
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\p{Cntrl}+", " ");
  }
}

package dev.gq.cli;

import dev.gq.core.job.Durations;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.report.UsageReport;
import dev.gq.core.report.UsageRow;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code gq report} as text: a line naming the period, a table per GPU (with outside and idle
 * hours) and one per group, each ending with the total; ended states other than DONE, FAILED and
 * CANCELLED are summed as OTHER. On stderr, when outside and idle time are unknown for part of the
 * period, from when they are known.
 */
final class ReportText {
  private ReportText() {}

  static void print(Io io, UsageReport r, ZoneId zone) {
    PrintWriter out = EscapingWriter.of(io.out());
    int width = TextTable.width(io);
    Duration span = Duration.between(r.period().from(), r.period().to());
    out.println("From " + Times.format(r.period().from(), zone) + " to " + Times.format(r.period().to(), zone) + " ("
        + Durations.format(span.withNanos(0)) + ")" + (r.group() == null ? "" : ", group " + PrintableText.escape(r.group())));
    TextTable gpus = table("GPU", true);
    for (UsageRow row : r.gpus()) gpus.add(row(String.valueOf(row.gpuIndex()), row, true));
    gpus.add(row("all", r.total(), true));
    gpus.print(out, width);
    out.println();
    TextTable groups = table("GROUP", false);
    for (UsageRow row : r.groups()) groups.add(row(TextTable.cutMiddle(PrintableText.escape(row.name()), 32), row, false));
    groups.add(row("all", r.total(), false));
    groups.print(out, width);
    if (r.sharedJobs() > 0)
      out.println("GPU-HOURS count each of the " + r.sharedJobs() + " shared job" + (r.sharedJobs() == 1 ? "" : "s")
          + " as its share of the card: its declared memory over the card's total.");
    if (r.gpuTimeKnownFrom() == null)
      EscapingWriter.of(io.err()).println("gq: outside and idle hours are unknown: the daemon recorded nothing of what the GPUs did in this"
          + " period (it records from its first start with this gq on)");
    else if (span.minus(r.gpuTimeKnown()).compareTo(Duration.ofSeconds(1)) > 0)
      EscapingWriter.of(io.err()).println("gq: outside and idle hours cover " + Durations.format(r.gpuTimeKnown().withNanos(0)) + " of the period's "
          + Durations.format(span.withNanos(0)) + ", from " + Times.format(r.gpuTimeKnownFrom(), zone)
          + ": the daemon records them only while it runs");
  }

  private static TextTable table(String first, boolean gpuTime) {
    List<String> h = new ArrayList<>(List.of(first, "GPU-HOURS"));
    if (gpuTime) h.addAll(List.of("OUTSIDE", "IDLE"));
    h.addAll(List.of("DONE", "FAILED", "CANCELLED", "OTHER", "STARTED", "WAIT-MEDIAN", "WAIT-P90"));
    return TextTable.of(h.stream().map(s -> new TextTable.Column(s, s.equals("GROUP") ? 8 : 0)).toList());
  }

  private static List<String> row(String name, UsageRow row, boolean gpuTime) {
    List<String> r = new ArrayList<>(List.of(name, hours(row.gpuHours())));
    if (gpuTime) {
      r.add(row.outsideHours() == null ? "?" : hours(row.outsideHours()));
      r.add(row.idleHours() == null ? "?" : hours(row.idleHours()));
    }
    int other = 0;
    for (JobState s : JobState.values())
      if (s.terminal() && s != JobState.DONE && s != JobState.FAILED && s != JobState.CANCELLED) other += row.ended(s);
    r.addAll(List.of(String.valueOf(row.ended(JobState.DONE)), String.valueOf(row.ended(JobState.FAILED)),
        String.valueOf(row.ended(JobState.CANCELLED)), String.valueOf(other), String.valueOf(row.started()),
        wait(row.waitMedian()), wait(row.waitP90())));
    return r;
  }

  static String hours(double h) {
    return String.format(Locale.ROOT, h >= 100 ? "%.0f" : h >= 10 ? "%.1f" : h >= 1 || h == 0 ? "%.2f" : "%.3f", h);
  }

  private static String wait(Duration d) {
    return d == null ? "-" : Durations.format(d.withNanos(0));
  }
}

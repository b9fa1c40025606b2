package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.report.Period;
import dev.gq.core.report.QueueLength;
import dev.gq.core.report.Usage;
import dev.gq.core.report.UsageReport;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq report}: what the box did over a period, per GPU and per group (GPU-hours of jobs, jobs
 * ended by state, median and p90 wait before start, outside and idle GPU-hours), as a table or JSON,
 * and on request a timeline picture ({@link ReportPlot}, loaded only then). The figures are computed
 * by {@link Usage} from the rows the daemon hands over one at a time ({@link ReportRows}); only a plot
 * keeps them.
 */
@Command(name = "report", description = "Show what the GPUs did over a period: GPU-hours per GPU and group (a shared"
    + " job counts its share of the card), jobs done/failed/cancelled, waits, outside and idle time; optionally draw it (--plot).")
final class ReportCommand implements Callable<Integer> {
  private static final String DEFAULT_SINCE = "7d";
  private final Invocation inv;

  @Option(names = "--since", paramLabel = "WHEN", description = "Start of the period: an age (12h, 7d), a date (2026-11-23) or an"
      + " ISO-8601 time (default: 7d, or the first recorded use when that is later).")
  String since;

  @Option(names = "--until", paramLabel = "WHEN", description = "End of the period, in the same forms (default: now).")
  String until;

  @Option(names = "--group", paramLabel = "GROUP", description = "Only this group's jobs (GPUs' outside and idle time stay whole).")
  String group;

  @Option(names = "--json", description = "Print the report as one JSON object.")
  boolean json;

  @Option(names = "--plot", paramLabel = "FILE", description = "Also draw a timeline (a lane per GPU, a bar per job,"
      + " outside processes) and the queue's length over time to FILE (.png or .svg; relative to the current directory).")
  String plot;

  @Option(names = "--colour-by", paramLabel = "WHAT", defaultValue = "group",
      description = "Colour the plot's bars by 'group' or by end 'state' (default: ${DEFAULT-VALUE}).")
  String colourBy;

  ReportCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    ZoneId zone = Times.zone(inv.io().env());
    Instant now = inv.api().now();
    Instant from = Since.parse(since == null ? DEFAULT_SINCE : since, now, zone, "--since");
    Instant to = until == null ? now : Since.parse(until, now, zone, "--until");
    if (!from.isBefore(to))
      throw new UsageException("--since must be before --until (" + Times.format(from, zone) + " is not before "
          + Times.format(to, zone) + ")");
    if (!colourBy.equals("group") && !colourBy.equals("state"))
      throw new UsageException("--colour-by takes 'group' or 'state', not '" + colourBy + "'");
    Path target = plot == null ? null : ReportFiles.target(inv.io().cwd(), plot);
    String g = group == null ? null : Labels.checkOption("--group", group);
    Period asked = new Period(from, to);
    ReportRows rows = read(asked, g, target != null, null);
    // the daemon counted the first use from the rows as stored; the rows read decide it, which differs
    // only when a row could not be read or was deleted meanwhile: then they are read again
    Period seen = asked.fromFirstUse(rows.firstUse());
    if (since == null && !rows.period().equals(seen)) {
      rows = null;   // a plot's rows of the first reading are let go before the second is read
      rows = read(asked, g, target != null, seen);
    }
    UsageReport report = rows.report();
    if (target != null)
      ReportPlot.write(target, report, rows.held(), QueueLength.over(rows.held().jobs(), report.period()), colourBy.equals("state"));
    if (json) inv.out().println(JsonView.pretty(ReportJson.of(report)));
    else ReportText.print(inv.io(), report, zone);
    if (target != null && !json) inv.err().println("gq: wrote the plot to " + target);
    return ExitCode.OK;
  }

  /**
   * Reads the rows of {@code asked} once, folding them over {@code period}, or when that is null over
   * the period the daemon's first use gives (with no --since) or {@code asked}.
   */
  private ReportRows read(Period asked, String g, boolean plot, Period period) throws ApiException {
    List<ReportRows> out = new ArrayList<>(1);
    inv.api().usage(asked.from(), asked.to(), plot, facts -> {
      Period p = period != null ? period : since == null ? facts.fromFirstUse(asked) : asked;
      out.add(new ReportRows(facts, p, g, plot));
      return out.getFirst();
    });
    return out.getFirst();
  }
}

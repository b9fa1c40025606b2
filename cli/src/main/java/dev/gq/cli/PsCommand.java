package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq ps}: lists jobs, newest first. With no ids, states, limit or {@code --all} it shows
 * every live job plus the {@value PsPages#RECENT} most recently submitted ended ones, so the list stays
 * short however long the history; filters combine with AND, ids and ranges with OR. A list without
 * a limit is read and printed in pages of {@value PsPages#PAGE}, so no list holds the whole history, and
 * the default one ({@link PsListing}) holds no more than a page of a queue of any length and on a
 * terminal shows only what fits ({@link ScreenFit}).
 * The table ({@link JobTable}) fits a terminal and is whole in a pipe; {@code --format} picks its
 * columns, and states are coloured on a terminal unless the caller's environment sets NO_COLOR.
 */
@Command(name = "ps", aliases = {"ls", "list", "status"}, description = "List live jobs and the last " + PsPages.RECENT + " ended ones (--all: every job).",
    footer = {"", "On a terminal it shows what fits: with a queue longer than the screen, the running jobs and the newest"
        + " waiting ones, then a line saying how many more wait. Piped, or with --json, the list is whole."})
final class PsCommand implements Callable<Integer> {
  private final Invocation inv;
  private final Set<Long> unreadable = new TreeSet<>();
  /** What the table shows besides the jobs; made once the columns are known. */
  private PsContext extras;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges: 12, 300-440, 12,14.")
  List<String> selectors = new ArrayList<>();

  @Option(names = {"-t", "--state"}, paramLabel = "STATE", completionCandidates = StateFilter.Names.class,
      description = "Only jobs in these states (comma-separated or repeated): ${COMPLETION-CANDIDATES};"
          + " squeue's PD, R, CG, CD, F, CA, TO, PR too.")
  List<String> states = new ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "Only jobs of this group; a summary line follows the table.")
  String group;

  @Option(names = "--limit", paramLabel = "N", description = "At most N jobs, newest first.")
  Integer limit;

  @Option(names = {"-a", "--all"}, description = "Every matching job, not only live and recent ones.")
  boolean all;

  @Option(names = "--json", description = "Print the jobs as a JSON array.")
  boolean json;

  @Option(names = {"-o", "--format"}, paramLabel = "COLUMNS",
      description = "The columns to show, comma-separated, e.g. id,state,gpus,elapsed,name. Columns: ${COMPLETION-CANDIDATES}.",
      completionCandidates = ColumnNames.class)
  String format;

  @Option(names = "--no-header", description = "Print the rows without the header line; with no rows, stdout stays empty (No jobs. goes to stderr).")
  boolean noHeader;

  @Option(names = "--sort", paramLabel = "ORDER", defaultValue = "id", completionCandidates = RowOrder.Names.class,
      description = "Row order: id (newest first, the default), queue (waiting jobs in the order they start, then the rest),"
          + " priority (highest first).")
  String sort;

  /** The names --format takes, for the help text. */
  static final class ColumnNames implements Iterable<String> {
    @Override public Iterator<String> iterator() {
      return Arrays.stream(JobColumn.values()).map(JobColumn::label).iterator();
    }
  }

  /** The columns --format named; null: the default ones. */
  private List<JobColumn> columns;

  PsCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    List<long[]> ranges = JobRanges.parseAll(selectors);
    if (limit != null && limit < 1) throw new UsageException("--limit must be at least 1, not " + limit);
    if (json && format != null) throw new UsageException("--format chooses table columns and --json prints every field; use one of them");
    columns = format == null ? null : JobColumn.parse(format);
    extras = new PsContext(inv, columns, group);
    RowOrder order = RowOrder.parse(sort);
    boolean chosen = !ranges.isEmpty() || !states.isEmpty() || limit != null || all;
    Set<JobState> wanted = StateFilter.parse(states);
    JobQuery q = new JobQuery(ranges, wanted, group, limit == null ? 0 : limit);
    PsListing listing = new PsListing(inv, extras, group, columns, json ? PsListing.Shape.JSON : noHeader ? PsListing.Shape.ROWS : PsListing.Shape.TABLE, unreadable);
    int shown = chosen && limit == null && order == RowOrder.ID ? paged(q)
        : chosen ? listed(order.sorted(read(q).jobs()))
        : order != RowOrder.ID ? listed(order.sorted(listing.whole()))
        : json ? listing.json() : listing.table();
    if (shown == 0 && !json && unreadable.isEmpty()) printEmpty(ranges);
    if (shown > 0 && !json && group != null) summary();
    if (unreadable.isEmpty()) return ExitCode.OK;
    inv.io().err().println("gq: " + (unreadable.size() == 1 ? "job " : "jobs ") + JobRanges.format(List.copyOf(unreadable))
        + " could not be read from the history (a damaged record) and " + (unreadable.size() == 1 ? "is" : "are")
        + " not listed; " + (unreadable.size() == 1 ? "its" : "their") + " events are still in 'gq events --job ID'");
    return ExitCode.FAILED;
  }

  /** One page of jobs; the ids of rows that cannot be read are kept for the closing line. */
  private JobPage read(JobQuery q) throws ApiException {
    JobPage page = inv.api().jobPage(q);
    unreadable.addAll(page.unreadable());
    return page;
  }

  /** Prints a short list whole; returns how many jobs it holds. */
  private int listed(List<Job> jobs) throws ApiException {
    PrintWriter out = inv.io().out();
    if (json) {
      out.println(JsonView.pretty(JsonView.jobs(jobs, extras.reasonsFor(jobs))));
      return jobs.size();
    }
    if (jobs.isEmpty()) return 0;
    JobTableContext ctx = extras.context(jobs);
    JobTable.print(jobs, layout(jobs, false, ctx), ctx, out, TextTable.width(inv.io()), null);
    return jobs.size();
  }

  /** Prints every job of {@code q} page by page, newest first; returns how many there were. */
  private int paged(JobQuery q) throws ApiException {
    JobPage rows = read(q.page(0, PsPages.PAGE));
    if (rows.rows() < PsPages.PAGE) return listed(rows.jobs());
    List<Job> page = rows.jobs();
    PrintWriter out = inv.io().out();
    JsonView.ArrayStream array = json ? new JsonView.ArrayStream(out) : null;
    JobTableContext ctx = json ? null : extras.context(page);
    JobTable.Layout layout = layout(page, true, ctx);
    int[] widths = null;
    int shown = 0;
    while (rows.rows() > 0 && !inv.io().closed()) {
      if (array != null) {
        JobHints hints = JobHints.of(inv.api(), page);
        Map<Long, WaitReason> waits = extras.reasonsFor(page);
        page.forEach(j -> array.add(JsonView.shownJob(j, hints, waits.get(j.id()))));
      }
      else if (!page.isEmpty()) {
        if (shown > 0) ctx = extras.later(ctx, page, layout.columns());
        widths = JobTable.print(page, layout, ctx, out, TextTable.width(inv.io()), widths);
      }
      out.flush();
      shown += page.size();
      rows = rows.rows() < PsPages.PAGE ? new JobPage(List.of(), List.of()) : read(q.page(rows.lowestId(), PsPages.PAGE));
      page = rows.jobs();
    }
    if (array != null) array.end();
    return shown;
  }

  /** The table's look for {@code jobs}, the first page of several when {@code paged}. */
  private JobTable.Layout layout(List<Job> jobs, boolean paged, JobTableContext ctx) {
    List<JobColumn> shown = columns != null ? columns : JobColumn.defaults(jobs, paged, group != null,
        ctx == null ? Map.of() : ctx.progress(), ctx == null ? Map.of() : ctx.notes());
    return new JobTable.Layout(shown, !noHeader, Colour.enabled(inv.io()));
  }

  /** The --group line under the table, and the group's hold notice. */
  private void summary() throws ApiException {
    Optional<GroupSummary> g = inv.api().group(group);
    if (g.isEmpty()) return;
    inv.io().out().println(GroupText.summary(g.get()));
    if (g.get().held()) GroupText.holdNotice(inv.io().err(), g.get());
  }

  /**
   * Says there is nothing to show: on stdout for a person at a terminal; on stderr for a script (stdout
   * not a terminal, --no-header or --format), whose stdout stays empty.
   */
  private void printEmpty(List<long[]> ranges) {
    boolean script = noHeader || format != null || !inv.io().stdoutTty();
    PrintWriter out = script ? inv.io().err() : inv.io().out();
    out.println("No jobs.");
    boolean filtered = !ranges.isEmpty() || !states.isEmpty() || group != null;
    if (filtered) out.println("None match these filters; 'gq ps --all' lists every job.");
    else out.println("Queue one with 'gq -g 1 CMD...' or 'gq submit SCRIPT'.");
  }
}

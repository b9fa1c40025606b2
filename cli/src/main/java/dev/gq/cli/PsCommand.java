package dev.gq.cli;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq ps}: lists jobs, newest first. With no ids, states, limit or {@code --all} it shows
 * every live job plus the {@value #RECENT} most recently submitted finished ones, so the list stays
 * short however long the history; filters combine with AND, ids and ranges with OR.
 */
@Command(name = "ps", description = "List live jobs and the last " + PsCommand.RECENT + " finished ones (--all: every job).")
final class PsCommand implements Callable<Integer> {
  static final int RECENT = 20;
  private static final Set<JobState> LIVE = EnumSet.complementOf(finished());
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges: 12, 300-440, 12,14.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--state", paramLabel = "STATE", description = "Only jobs in this state (repeatable): ${COMPLETION-CANDIDATES}.")
  List<JobState> states = new ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "Only jobs of this group.")
  String group;

  @Option(names = "--limit", paramLabel = "N", description = "At most N jobs, newest first.")
  Integer limit;

  @Option(names = "--all", description = "Every matching job, not only live and recent ones.")
  boolean all;

  @Option(names = "--json", description = "Print the jobs as a JSON array.")
  boolean json;

  PsCommand(Invocation inv) {
    this.inv = inv;
  }

  private record Selection(List<Job> jobs, boolean olderHidden) {}

  @Override
  public Integer call() throws ApiException {
    List<long[]> ranges = JobRanges.parseAll(selectors);
    if (limit != null && limit < 1) throw new UsageException("--limit must be at least 1, not " + limit);
    Selection sel = select(ranges);
    PrintWriter out = inv.io().out();
    if (json) {
      out.println(JsonView.pretty(JsonView.jobs(sel.jobs())));
      return ExitCode.OK;
    }
    if (sel.jobs().isEmpty()) {
      printEmpty(out, ranges);
      return ExitCode.OK;
    }
    JobTable.print(sel.jobs(), reasons(sel.jobs()), out, TextTable.width(inv.io()));
    if (sel.olderHidden()) inv.io().err().println("gq: older finished jobs are not shown; 'gq ps --all' lists them");
    return ExitCode.OK;
  }

  private Selection select(List<long[]> ranges) throws ApiException {
    GqApi api = inv.api();
    if (!ranges.isEmpty() || !states.isEmpty() || limit != null || all) {
      Set<JobState> wanted = states.isEmpty() ? Set.of() : EnumSet.copyOf(states);
      return new Selection(api.jobs(new GqApi.JobQuery(ranges, wanted, group, limit == null ? 0 : limit)), false);
    }
    List<Job> jobs = new ArrayList<>(api.jobs(new GqApi.JobQuery(List.of(), EnumSet.copyOf(LIVE), group, 0)));
    List<Job> done = api.jobs(new GqApi.JobQuery(List.of(), finished(), group, RECENT + 1));
    jobs.addAll(done.subList(0, Math.min(RECENT, done.size())));
    jobs.sort(Comparator.comparingLong(Job::id).reversed());
    return new Selection(jobs, done.size() > RECENT);
  }

  private Map<Long, String> reasons(List<Job> jobs) throws ApiException {
    boolean waiting = jobs.stream().anyMatch(j -> j.state() == JobState.WAITING);
    return waiting ? inv.api().waitReasons() : Map.of();
  }

  private void printEmpty(PrintWriter out, List<long[]> ranges) {
    out.println("No jobs.");
    boolean filtered = !ranges.isEmpty() || !states.isEmpty() || group != null;
    if (filtered) out.println("None match these filters; 'gq ps --all' lists every job.");
    else out.println("Queue one with 'gq -g 1 CMD...' or 'gq submit SCRIPT'.");
  }

  private static EnumSet<JobState> finished() {
    EnumSet<JobState> s = EnumSet.noneOf(JobState.class);
    for (JobState st : JobState.values()) if (st.terminal()) s.add(st);
    return s;
  }
}

package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.JobQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code gq rm JOB...}: deletes ended jobs from the history, with their logs and exit records.
 * All or nothing: an unknown id or a job that has not ended refuses the whole request. Ranges
 * take the jobs that exist in them. The journal keeps the deleted jobs' events.
 */
@Command(name = "rm", description = "Remove ended jobs from the history, with their logs (all or nothing).")
final class RmCommand implements Callable<Integer> {
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "1..*", description = "Job ids or ranges: 12, 300-440, 12,14.")
  List<String> selectors = new ArrayList<>();

  RmCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    List<long[]> ranges = JobRanges.parseAll(selectors);
    TreeSet<Long> ids = new TreeSet<>();
    for (long[] r : ranges) {
      if (r[0] == r[1]) ids.add(r[0]);
      else ids.addAll(JobIds.of(inv.api(), new JobQuery(List.<long[]>of(r), Set.of(), null, 0)));
    }
    if (ids.isEmpty()) throw new RefusedException("no job exists in " + String.join(" ", selectors) + "; nothing was deleted");
    List<Long> removed = inv.api().remove(List.copyOf(ids));
    inv.io().out().println("Removed " + jobsAndLogs(removed.size()) + ": " + JobRanges.format(removed));
    return ExitCode.OK;
  }

  /** "1 job and its log", "3 jobs and their logs". */
  static String jobsAndLogs(long n) {
    return n == 1 ? "1 job and its log" : n + " jobs and their logs";
  }
}

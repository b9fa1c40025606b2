package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.progress.Estimate;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq eta [JOB...]}: how far each running job (the named ones, else all) has got and how long
 * it has left: elapsed time, count and percent, rate, time left, estimated finish on the caller's
 * clock and the source the estimate came from. A named job that is not running is said on stderr;
 * one that does not exist makes the exit status 1. All jobs' files are read in one request.
 */
@Command(name = "eta", description = "Show how far running jobs have got and how long they have left.")
final class EtaCommand implements Callable<Integer> {
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges (default: every running job).")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--json", description = "Print one JSON object per running job, in an array.")
  boolean json;

  EtaCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    List<long[]> ranges = JobRanges.parseAll(selectors);
    Set<JobState> states = ranges.isEmpty() ? Set.of(JobState.RUNNING) : Set.of();
    List<Job> jobs = new ArrayList<>(inv.api().jobs(new JobQuery(ranges, states, null, 0)));
    jobs.sort(Comparator.comparingLong(Job::id));
    int code = ExitCode.OK;
    for (long[] r : ranges) {
      if (r[0] == r[1] && jobs.stream().noneMatch(j -> j.id() == r[0])) {
        inv.err().println("gq: job " + r[0] + " does not exist");
        code = ExitCode.FAILED;
      }
    }
    List<Job> running = new ArrayList<>();
    for (Job j : jobs) {
      if (j.state() == JobState.RUNNING) running.add(j);
      else inv.err().println("gq: job " + j.id() + " is " + j.state() + "; only a running job has an ETA");
    }
    Map<Long, Estimate> estimates = running.isEmpty() ? Map.of() : inv.api().progress(running.stream().map(Job::id).toList());
    Instant now = inv.api().now();
    PrintWriter out = inv.out();
    if (json) out.println(JsonView.pretty(json(running, estimates, now)));
    else if (running.isEmpty()) {
      if (ranges.isEmpty()) out.println("No running jobs.");
    } else table(running, estimates, now).print(out, TextTable.width(inv.io()));
    return code;
  }

  private TextTable table(List<Job> running, Map<Long, Estimate> estimates, Instant now) {
    ZoneId zone = Times.zone(inv.io().env());
    TextTable t = new TextTable(List.of("JOB", "ELAPSED", "PROGRESS", "RATE", "LEFT", "FINISH", "SOURCE"));
    for (Job j : running) {
      Estimate e = estimates.get(j.id());
      String elapsed = JobColumn.elapsed(j, now);
      if (e == null) t.add(List.of(String.valueOf(j.id()), elapsed, "-", "-", "-", "-", "unknown"));
      else t.add(List.of(String.valueOf(j.id()), elapsed, ProgressText.count(e), ProgressText.rate(e),
          ProgressText.remaining(e), Times.format(ProgressText.finish(e, now), zone), e.source().label()));
    }
    return t;
  }

  static ArrayNode json(List<Job> running, Map<Long, Estimate> estimates, Instant now) {
    ArrayNode a = JsonView.object().arrayNode();
    for (Job j : running) {
      Estimate e = estimates.get(j.id());
      ObjectNode n = a.addObject();
      n.put("id", j.id());
      n.put("elapsed_seconds", j.startTime() == null ? null : Math.max(0, Duration.between(j.startTime(), now).getSeconds()));
      boolean total = e != null && !Double.isNaN(e.percent());
      n.put("current", e == null ? null : e.current());
      n.put("total", total ? e.total() : null);
      n.put("percent", total ? e.percent() : null);
      n.put("rate_per_second", e == null || Double.isNaN(e.ratePerSecond()) ? null : e.ratePerSecond());
      n.put("remaining_seconds", e == null || e.remaining() == null ? null : e.remaining().getSeconds());
      n.put("finish", e == null ? null : JsonView.time(ProgressText.finish(e, now)));
      n.put("source", e == null ? null : e.source().label());
    }
    return a;
  }
}

package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.CancelOutcome;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq cancel}: one job by id (strict: says exactly what happened, fails for an unknown or
 * ended job), or a selection by ids/ranges, {@code --group} and {@code --waiting}. Cancelling
 * several jobs when some of them run asks first on a terminal; without one it needs {@code --yes}.
 * Waiting jobs are dropped; running ones get SIGTERM, then SIGKILL after the daemon's grace period.
 */
@Command(name = "cancel", aliases = "kill", description = "Cancel jobs: waiting ones never start, running ones are stopped.")
final class CancelCommand implements Callable<Integer> {
  /** The states a cancel acts on, by core's rule. */
  private static final Set<JobState> CANCELLABLE = JobState.where(JobState::cancellable);
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges: 12, 300-440, 12,14.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "The jobs of this group.")
  String group;

  @Option(names = "--waiting", description = "Only jobs that have not started.")
  boolean waiting;

  @Option(names = {"-y", "--yes"}, description = "Do not ask before stopping running jobs.")
  boolean yes;

  CancelCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (selectors.isEmpty() && group == null && !waiting) {
      throw new UsageException("say what to cancel: job ids or ranges (12 300-440), --group GROUP, or --waiting");
    }
    if (selectors.size() == 1 && JobRanges.isPlainId(selectors.get(0)) && group == null && !waiting) {
      return single(JobRanges.id(selectors.get(0)));
    }
    List<long[]> ranges = JobRanges.parseAll(selectors);
    Set<JobState> states = waiting ? EnumSet.of(JobState.WAITING) : EnumSet.copyOf(CANCELLABLE);
    List<Job> jobs = inv.api().jobs(new JobQuery(ranges, states, group, 0));
    if (jobs.isEmpty()) {
      inv.io().out().println("No matching jobs to cancel.");
      return ExitCode.OK;
    }
    if (!confirmed(jobs)) return ExitCode.OK;
    List<CancelOutcome> outcomes = inv.api().cancel(jobs.stream().map(Job::id).toList());
    inv.io().out().println(summary(outcomes));
    return ExitCode.OK;
  }

  private int single(long id) throws ApiException {
    List<CancelOutcome> outcomes = inv.api().cancel(List.of(id));
    CancelOutcome o = outcomes.isEmpty() ? new CancelOutcome(id, CancelOutcome.Kind.UNKNOWN, null) : outcomes.get(0);
    String line = switch (o.kind()) {
      case CANCELLED -> "Job " + id + ": cancelled";
      case STOPPING -> o.message() != null && o.message().contains("(scancel)") ? "J" + o.message().substring(1)
          : "Job " + id + ": stopping (SIGTERM now, SIGKILL after the grace period)";
      case ALREADY_CANCELLING -> "Job " + id + ": cancellation already in progress";
      case ALREADY_ENDED -> throw new RefusedException(orElse(o.message(), "job " + id + " has already ended"));
      case UNKNOWN -> throw new RefusedException(orElse(o.message(), "job " + id + " does not exist"));
    };
    inv.io().out().println(line);
    return ExitCode.OK;
  }

  private boolean confirmed(List<Job> jobs) {
    long running = jobs.stream().filter(j -> j.state() != JobState.WAITING).count();
    if (yes || jobs.size() < 2 || running == 0) return true;
    if (!inv.io().stdinTty()) {
      throw new RefusedException("cancelling " + jobs.size() + " jobs, " + running
          + " of them running, needs confirmation; pass --yes to do it without asking");
    }
    String question = "Cancel " + jobs.size() + " jobs (" + running + " running, " + (jobs.size() - running)
        + " waiting)? Running jobs will be killed. [y/N] ";
    Optional<String> answer = inv.io().prompt(question);
    String a = answer.map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
    if (a.equals("y") || a.equals("yes")) return true;
    inv.io().out().println("Nothing was cancelled.");
    return false;
  }

  /** "Cancelled 2 waiting jobs, stopping 1 running job." from the daemon's outcomes. */
  static String summary(List<CancelOutcome> outcomes) {
    Map<CancelOutcome.Kind, Integer> counts = new EnumMap<>(CancelOutcome.Kind.class);
    for (CancelOutcome o : outcomes) counts.merge(o.kind(), 1, Integer::sum);
    List<String> parts = new ArrayList<>();
    counts.forEach((kind, n) -> parts.add(switch (kind) {
      case CANCELLED -> "cancelled " + n + " waiting " + jobs(n);
      case STOPPING -> "stopping " + n + " running " + jobs(n);
      case ALREADY_CANCELLING -> n + " already being cancelled";
      case ALREADY_ENDED -> n + " had already ended";
      case UNKNOWN -> n + " no longer existed";
    }));
    if (parts.isEmpty()) return "Nothing to do.";
    String text = String.join(", ", parts);
    return Character.toUpperCase(text.charAt(0)) + text.substring(1) + ".";
  }

  private static String jobs(int n) {
    return n == 1 ? "job" : "jobs";
  }

  private static String orElse(String a, String b) {
    return a != null && !a.isBlank() ? a : b;
  }
}

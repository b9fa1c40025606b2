package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.Durations;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq clean}: deletes the jobs that ended more than a given time ago (default 30 days), with
 * their logs and exit records, optionally only those in some ended states. It asks first on a
 * terminal and needs {@code --yes} otherwise. Live jobs are never touched; the journal keeps the
 * deleted jobs' events.
 */
@Command(name = "clean", description = "Remove jobs that ended long ago from the history, with their logs.")
final class CleanCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = "--older-than", paramLabel = "DURATION", defaultValue = "30d",
      description = "Only jobs that ended more than this long ago: 30d, 12h, 2w (default: 30d).")
  String olderThan;

  @Option(names = "--state", paramLabel = "STATE",
      description = "Only jobs that ended in these states (comma-separated or repeated): DONE, FAILED, ...")
  List<String> states = new ArrayList<>();

  @Option(names = {"-y", "--yes"}, description = "Do not ask first.")
  boolean yes;

  CleanCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    Duration age = DurationOption.parse("--older-than", olderThan, Durations.OLDEST);
    Set<JobState> wanted = StateFilter.parse(states);
    for (JobState s : wanted) {
      if (!s.terminal()) throw new UsageException("--state " + s + " is not an ended state; gq clean deletes only jobs that have ended");
    }
    Instant cutoff = inv.api().now().minus(age);
    long n = inv.api().count(new JobQuery(List.of(), JobState.endedAmong(wanted), null, 0, false, 0, cutoff));
    String what = describe(wanted, n) + " that ended more than " + Durations.format(age) + " ago";
    if (n == 0) {
      inv.io().out().println("No " + describe(wanted, 2) + " ended more than " + Durations.format(age) + " ago.");
      return ExitCode.OK;
    }
    if (!confirmed(n, what)) return ExitCode.OK;
    int removed = inv.api().clean(cutoff, wanted);
    inv.io().out().println("Removed " + RmCommand.jobsAndLogs(removed) + ".");
    return ExitCode.OK;
  }

  private boolean confirmed(long n, String what) {
    if (yes) return true;
    if (!inv.io().stdinTty()) {
      throw new RefusedException("deleting " + n + " " + what + " needs confirmation; pass --yes to do it without asking");
    }
    String a = inv.io().prompt("Delete " + n + " " + what + ", with their logs? [y/N] ")
        .map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
    if (a.equals("y") || a.equals("yes")) return true;
    inv.io().out().println("Nothing was deleted.");
    return false;
  }

  /** "jobs", "FAILED/TIMEOUT jobs", "job" when {@code n} is 1. */
  private static String describe(Set<JobState> states, long n) {
    String noun = n == 1 ? "job" : "jobs";
    if (states.isEmpty()) return noun;
    return String.join("/", states.stream().map(JobState::name).sorted().toList()) + " " + noun;
  }
}

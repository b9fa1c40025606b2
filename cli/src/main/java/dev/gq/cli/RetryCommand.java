package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.Retries;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq retry}: queues ended jobs again as new jobs (same command, directory, environment,
 * GPUs and labels; {@code retry_of} names the first attempt). Jobs named by id are all sent, so
 * the daemon can say why one is skipped; a group selects the latest attempts in the retryable
 * states, or only those of the state flags given. Retrying into a held group releases its hold,
 * and so does retrying a group fail-fast held even when its failed cells were submitted again
 * since (then nothing is left to retry, but they wait in the group); a group the user held stays
 * held unless a retry lands in it, and the command says how to release it. A PREEMPTED job's new
 * attempt resumes from its newest checkpoint, as {@code gq resume} does.
 */
@Command(name = "retry", description = "Queue ended jobs again: failed, cancelled, interrupted, timed out or preempted (which resume).")
final class RetryCommand implements Callable<Integer> {
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges: 216, 216-218, 12,14.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "The latest attempts of this group's jobs.")
  String group;

  @Option(names = "--failed", description = "Only FAILED jobs.")
  boolean failed;

  @Option(names = "--cancelled", description = "Only CANCELLED jobs.")
  boolean cancelled;

  @Option(names = "--interrupted", description = "Only INTERRUPTED jobs.")
  boolean interrupted;

  @Option(names = "--timed-out", description = "Only jobs stopped at their time limit (TIMEOUT).")
  boolean timedOut;

  @Option(names = "--preempted", description = "Only PREEMPTED jobs (each resumes from its newest checkpoint).")
  boolean preempted;

  RetryCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (selectors.isEmpty() && group == null) {
      throw new UsageException("say what to retry: job ids or ranges (216-218), or --group GROUP");
    }
    Labels.checkOption("--group", group);
    List<long[]> ranges = JobRanges.parseAll(selectors);
    Set<JobState> flags = flags();
    List<Long> ids = select(ranges, flags);
    String none = "No " + names(flags.isEmpty() ? Retries.RETRYABLE : flags) + " jobs match.";
    if (ids.isEmpty() && group == null) {
      inv.io().out().println(none);
      return ExitCode.OK;
    }
    GqApi.RetryReport r = group == null ? inv.api().retry(ids, flags) : inv.api().retry(ids, flags, group);
    if (ids.isEmpty()) inv.io().out().println(none);
    RetryText.print(r, inv.io().out());
    if (group != null && !r.released().contains(group)) stillHeld(r);
    return ExitCode.OK;
  }

  /** When the group stays held (the user held it, and no retry landed in it), how to release it. */
  private void stillHeld(GqApi.RetryReport r) throws ApiException {
    String reason = inv.api().holds().get(group);
    if (reason == null) return;
    inv.io().out().println("Group " + group + " is still held: " + PrintableText.escape(reason)
        + "; release it with 'gq release --group " + group + "'.");
  }

  /** Named jobs in any state (plain ids even when unknown); for a group only, its latest retryable attempts. */
  private List<Long> select(List<long[]> ranges, Set<JobState> flags) throws ApiException {
    Set<JobState> states = flags.isEmpty() && ranges.isEmpty() ? Retries.RETRYABLE : flags;
    boolean latest = ranges.isEmpty();
    List<Long> found = JobIds.of(inv.api(), new JobQuery(ranges, states, group, 0, latest, 0, null));
    Set<Long> ids = new LinkedHashSet<>(found.reversed());
    if (group == null && flags.isEmpty()) {
      for (long[] r : ranges) if (r[0] == r[1]) ids.add(r[0]);
    }
    return List.copyOf(ids);
  }

  private Set<JobState> flags() {
    Set<JobState> s = EnumSet.noneOf(JobState.class);
    if (failed) s.add(JobState.FAILED);
    if (cancelled) s.add(JobState.CANCELLED);
    if (interrupted) s.add(JobState.INTERRUPTED);
    if (timedOut) s.add(JobState.TIMEOUT);
    if (preempted) s.add(JobState.PREEMPTED);
    return s;
  }

  private static String names(Set<JobState> states) {
    List<String> words = states.stream().map(s -> s == JobState.TIMEOUT ? "timed-out" : s.name().toLowerCase()).toList();
    if (words.size() == 1) return words.get(0);
    return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
  }
}

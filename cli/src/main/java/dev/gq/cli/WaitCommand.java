package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq wait}: blocks until jobs have ended, checking every {@value Poll#MILLIS} ms. For one
 * job it follows the job's retries and exits with the newest attempt's exit code (1 when it ended
 * without one); for several jobs or a group it exits 0 only when every one's latest attempt is
 * DONE. {@code --timeout} gives up with exit {@value Poll#TIMED_OUT}. A group held by fail-fast,
 * whose waiting jobs would never start, ends the wait with exit 1. Waiting for one job that has not
 * started, a terminal's stderr says what it waits for ({@link StartNote}).
 */
@Command(name = "wait", description = "Wait until jobs end; exit with the job's exit code (several jobs: 0 if all are DONE).")
final class WaitCommand implements Callable<Integer> {
  private static final Set<JobState> PENDING = JobState.live();
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "0..*", description = "Job ids or ranges: 12, 300-440, 12,14.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "Every job of this group, also those added while waiting.")
  String group;

  @Option(names = "--timeout", paramLabel = "DURATION", description = "Give up after this long (30s, 10m, 2h) with exit 124.")
  String timeout;

  WaitCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (selectors.isEmpty() && group == null) {
      throw new UsageException("say what to wait for: job ids or ranges (12 300-440), or --group GROUP");
    }
    Labels.checkOption("--group", group);
    Duration limit = DurationOption.parse("--timeout", timeout);
    Poll poll = new Poll(inv.io(), limit);
    if (selectors.size() == 1 && JobRanges.isPlainId(selectors.get(0)) && group == null) {
      return one(JobRanges.id(selectors.get(0)), poll);
    }
    return many(JobRanges.parseAll(selectors), poll);
  }

  private int one(long id, Poll poll) throws ApiException {
    Job job = ShowCommand.find(inv.api(), id);
    StartNote note = new StartNote(inv, "waiting for it to run and end");
    while (true) {
      if (job.state().terminal()) {
        Optional<Job> newest = inv.api().newestAttempt(job.id());
        if (newest.isEmpty() || newest.get().id() == job.id()) return ended(job);
        inv.io().err().println("gq: job " + job.id() + " ended " + job.state() + " and was retried as job "
            + newest.get().id() + "; waiting for that one");
        job = newest.get();
        continue;
      }
      stopIfHeld(List.of(job));
      note.see(job);
      if (!poll.next()) return poll.stopped("job " + job.id() + " is " + job.state());
      long current = job.id();
      job = inv.api().job(current).orElseThrow(() -> new RefusedException("job " + current + " was deleted while waited for"));
    }
  }

  /**
   * Prints how the job ended. Returns 0 for DONE; a FAILED or TIMEOUT job's own exit code; 1 for
   * any other end (CANCELLED, INTERRUPTED: the job did not end by itself) or a missing code.
   */
  private int ended(Job job) {
    String code = job.exitCode() == null ? "" : " (exit code " + job.exitCode() + ")";
    inv.io().out().println("Job " + job.id() + " ended " + job.state() + code);
    if (job.state() == JobState.DONE) return ExitCode.OK;
    Integer c = job.exitCode();
    boolean own = job.state() == JobState.FAILED || job.state() == JobState.TIMEOUT;
    return own && c != null && c > 0 && c < 256 ? c : ExitCode.FAILED;
  }

  private int many(List<long[]> ranges, Poll poll) throws ApiException {
    GqApi api = inv.api();
    if (api.count(new JobQuery(ranges, Set.of(), group, 0)) == 0) {
      throw new RefusedException("no job matches " + describe(ranges) + "; see 'gq ps --all'");
    }
    while (true) {
      List<Job> pending = api.jobs(new JobQuery(ranges, PENDING, group, 0));
      if (pending.isEmpty()) break;
      poll.progress(progressLine(ranges, pending.size()));
      stopIfHeld(pending);
      if (!poll.next()) return poll.stopped(notEnded(pending.size()) + " (" + ids(pending) + ")");
    }
    poll.endProgress();
    inv.io().out().println(finalLine(ranges));
    Set<JobState> bad = EnumSet.copyOf(JobState.ended());
    bad.remove(JobState.DONE);
    return api.count(new JobQuery(ranges, bad, group, 0, true, 0, null)) == 0 ? ExitCode.OK : ExitCode.FAILED;
  }

  /** Refuses to wait for waiting jobs that a fail-fast hold keeps from ever starting on their own. */
  private void stopIfHeld(List<Job> pending) throws ApiException {
    if (pending.stream().anyMatch(j -> j.state() != JobState.WAITING || j.spec().group() == null)) return;
    Set<String> groups = pending.stream().map(j -> j.spec().group()).collect(Collectors.toSet());
    if (groups.size() != 1 || !inv.api().holds().containsKey(groups.iterator().next())) return;
    Optional<GroupSummary> g = inv.api().group(groups.iterator().next());
    if (g.isEmpty() || !g.get().automatic()) return;
    String name = g.get().group();
    throw new RefusedException("group " + name + " is held (" + g.get().holdReason() + "), so its waiting jobs will not start;"
        + " fix the cause, then 'gq retry --group " + name + " --failed' or 'gq release --group " + name + "'");
  }

  private String progressLine(List<long[]> ranges, int pending) throws ApiException {
    if (!inv.io().stdoutTty()) return null;
    if (group != null && ranges.isEmpty()) {
      Optional<GroupSummary> g = inv.api().group(group);
      if (g.isEmpty()) return null;
      int[] e = GroupText.ended(g.get());
      return GroupText.bar(e[0], e[1], 20) + "  " + GroupText.summary(g.get());
    }
    long total = inv.api().count(new JobQuery(ranges, Set.of(), group, 0, true, 0, null));
    return GroupText.bar((int) Math.max(0, total - pending), (int) total, 20) + " jobs ended";
  }

  private String finalLine(List<long[]> ranges) throws ApiException {
    if (group != null && ranges.isEmpty()) {
      Optional<GroupSummary> g = inv.api().group(group);
      if (g.isPresent()) return GroupText.summary(g.get());
    }
    List<String> parts = new ArrayList<>();
    long total = 0;
    for (JobState s : JobState.values()) {
      if (!s.terminal()) continue;
      long n = inv.api().count(new JobQuery(ranges, Set.of(s), group, 0, true, 0, null));
      total += n;
      if (n > 0) parts.add(n + " " + s);
    }
    return total + (total == 1 ? " job ended: " : " jobs ended: ") + String.join(", ", parts);
  }

  private String describe(List<long[]> ranges) {
    String sel = String.join(" ", selectors);
    if (group == null) return sel;
    return ranges.isEmpty() ? "group " + group : sel + " in group " + group;
  }

  private static String ids(List<Job> jobs) {
    String shown = jobs.stream().limit(10).map(j -> String.valueOf(j.id())).collect(Collectors.joining(", "));
    return jobs.size() > 10 ? shown + ", ..." : shown;
  }

  /** "1 job has not ended", "3 jobs have not ended". */
  static String notEnded(int n) {
    return n == 1 ? "1 job has not ended" : n + " jobs have not ended";
  }
}

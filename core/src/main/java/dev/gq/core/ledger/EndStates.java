package dev.gq.core.ledger;

import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.util.List;

/** How an ending event turns into a final state and a reason the user can read. */
public final class EndStates {
  private EndStates() {}

  /** Why an adopted job ended EXITED: gq did not start it, so no exit status was recorded. */
  public static final String UNKNOWN_STATUS = "exit status unknown: the process was adopted";

  /** The job's end; a job with no identity shows the pid its exit record named, if any (display only). */
  static Job exited(Job before, LedgerEvent.JobExited e) {
    Job j = before.withReportedPid(e.pid());
    if (j.state() == JobState.CANCELLING)
      return j.ended(JobState.CANCELLED, e.exitCode(), "cancelled by user", e.at());
    Integer code = e.exitCode();
    if (j.state() == JobState.PREEMPTING)
      return j.ended(JobState.PREEMPTED, code, e.reason() != null ? e.reason() : "preempted; " + describe(code), e.at());
    if (code == null && j.adopted())
      return j.ended(JobState.EXITED, null, e.reason() != null ? e.reason() : UNKNOWN_STATUS, e.at());
    if (code != null && code == 0 && e.reason() == null) return j.ended(JobState.DONE, 0, null, e.at());
    String reason = e.reason() != null ? e.reason() : describe(code);
    return j.ended(JobState.FAILED, code, reason, e.at());
  }

  /** "exited with status 3", "killed by signal 9 (exit code 137)". */
  public static String describe(Integer code) {
    if (code == null) return "ended without an exit status";
    if (code > 128 && code < 128 + 65) return "killed by signal " + (code - 128) + " (exit code " + code + ")";
    return "exited with status " + code;
  }

  /** "exceeded its time limit of 2h". */
  public static String timedOut(Duration limit) {
    return "exceeded its time limit of " + Durations.format(limit);
  }

  static Job requeued(Job j) {
    return new Job(j.id(), j.spec(), JobState.WAITING, j.submitTime(), null, null, List.of(), null, null,
        j.logPath(), null, j.tag(), j.retryOf(), null, j.clusterId());
  }
}

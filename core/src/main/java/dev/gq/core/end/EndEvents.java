package dev.gq.core.end;

import dev.gq.core.job.Job;
import dev.gq.core.ledger.EndStates;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobExited;
import dev.gq.core.ledger.LedgerEvent.JobInterrupted;
import dev.gq.core.ledger.LedgerEvent.JobTimedOut;
import java.time.Instant;

/**
 * The event that records how a runner saw its job end, at {@code at}: TIMEOUT when the runner stopped
 * it at its limit (unless it was being cancelled or preempted), EXITED with its status unknown for an
 * adopted job, INTERRUPTED when it left no exit status (unless it was being stopped), else its exit,
 * with the reason {@link EndReasons} words, at the time its exit record was written when that is
 * known. Pure.
 */
public final class EndEvents {
  private EndEvents() {}

  public static LedgerEvent of(Job j, EndSeen s, Instant at) {
    boolean cancelling = j.state().stopping();
    Integer code = s.exitCode();
    String reason = EndReasons.reason(s);
    if (s.stoppedAtLimit() && !cancelling && j.spec().timeLimit() != null)
      return new JobTimedOut(j.id(), code, EndStates.timedOut(j.spec().timeLimit()), at);
    if (code == null && j.adopted() && !cancelling) return new JobExited(j.id(), null, EndStates.UNKNOWN_STATUS, at);
    if (code == null && reason == null && !cancelling)
      return new JobInterrupted(j.id(), "the job's processes ended but left no exit status", at);
    // the record's time: the job may have ended while the daemon was stopped, its processes kept alive
    return new JobExited(j.id(), code, reason, s.record() == null ? at : s.record().endTime(j.startTime(), at));
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.Outcomes;
import java.time.Instant;

/** The event that records how a job ended. */
final class Endings {
  private Endings() {}

  /**
   * A job whose processes are all gone: TIMEOUT when its runner stopped it at its limit (unless it
   * was being cancelled), INTERRUPTED when it left no exit status, else its exit.
   */
  static LedgerEvent of(Job j, Scheduler.Ended c, Instant now) {
    boolean cancelling = j.state() == JobState.CANCELLING;
    if (c.timedOut() && !cancelling && j.spec().timeLimit() != null)
      return new JobTimedOut(j.id(), c.exitCode(), Outcomes.timedOut(j.spec().timeLimit()), now);
    if (c.exitCode() == null && c.reason() == null && !cancelling)
      return new JobInterrupted(j.id(), "the job's processes ended but left no exit status", now);
    return new JobExited(j.id(), c.exitCode(), c.reason(), now);
  }
}

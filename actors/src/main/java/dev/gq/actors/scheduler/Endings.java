package dev.gq.actors.scheduler;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.Outcomes;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.apache.pekko.Done;

/** The event that records how a job ended, and the forgetting of jobs deleted from the history. */
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

  /** Frees the keys held by those of {@code ids} that have ended; nothing to write when none holds one. */
  static Decision<Done> removed(Ledger l, List<Long> ids, Instant now) {
    Set<Long> gone = Set.copyOf(ids);
    boolean holdsKey = l.keys().values().stream().anyMatch(h -> gone.contains(h.jobId()) && !l.live().containsKey(h.jobId()));
    if (!holdsKey) return Decision.accept(List.of(), Done.getInstance());
    List<Long> ended = ids.stream().filter(id -> !l.live().containsKey(id)).sorted().toList();
    return Decision.accept(List.of(new JobsRemoved(ended, now)), Done.getInstance());
  }
}

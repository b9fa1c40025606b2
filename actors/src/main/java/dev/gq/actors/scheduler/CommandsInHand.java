package dev.gq.actors.scheduler;

import dev.gq.core.job.Job;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands (argv and environment) that a write's own submissions carry, so that a job placed in
 * the write that submitted it starts without reading its command back from the database. Every other
 * job's runner reads it there: the ledger keeps none.
 */
final class CommandsInHand {
  private CommandsInHand() {}

  /** Job id → its submission, for each submission among {@code events} that carries its command itself. */
  static Map<Long, JobSubmitted> inHand(List<LedgerEvent> events) {
    Map<Long, JobSubmitted> out = new HashMap<>();
    for (LedgerEvent e : events)
      if (e instanceof JobSubmitted s && s.sameAs() == null && s.spec().hasCommand()) out.put(s.jobId(), s);
    return out;
  }

  /** {@code j} with its whole spec and log path when {@code inHand} has them; as it is otherwise. */
  static Job with(Job j, Map<Long, JobSubmitted> inHand) {
    JobSubmitted s = inHand.get(j.id());
    return s == null ? j : j.withStored(s.spec(), s.logPath());
  }
}

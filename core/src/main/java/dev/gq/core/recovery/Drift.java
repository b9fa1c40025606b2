package dev.gq.core.recovery;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which verdicts of a periodic reconciliation pass the Scheduler may act on, decided when they
 * arrive (the pass read the ledger a while before). A job whose state changed since the pass saw
 * it, or that ended, is skipped: the pass is stale for it. A job a runner watches is the runner's:
 * the runner sees its processes end and reads its exit record, so the pass never ends, requeues or
 * orphans it; the one fact a runner cannot see is an ORPHANED job's GPUs coming back, so of its
 * verdict only {@code JobRecovered} is kept. A job no runner watches (an ORPHANED job whose
 * processes had gone when it was orphaned, say) is the pass's: its whole verdict is kept, and a
 * verdict to watch it gets it a runner.
 */
public final class Drift {
  private Drift() {}

  /**
   * The verdicts to act on, from {@code verdicts} of jobs the pass saw in the states {@code seen},
   * given the ids of the jobs a runner watches now.
   */
  public static Map<Long, Recovery.Verdict> actionable(Ledger l, Map<Long, JobState> seen,
      Map<Long, Recovery.Verdict> verdicts, Set<Long> watched) {
    Map<Long, Recovery.Verdict> out = new LinkedHashMap<>();
    verdicts.forEach((id, v) -> {
      Job j = l.live().get(id);
      if (j == null || j.state() != seen.get(id)) return;
      if (!watched.contains(id)) {
        if (!v.events().isEmpty() || v.watch()) out.put(id, v);
        return;
      }
      if (j.state() != JobState.ORPHANED) return;
      List<LedgerEvent> back = v.events().stream().filter(e -> e instanceof LedgerEvent.JobRecovered).toList();
      if (!back.isEmpty()) out.put(id, new Recovery.Verdict(back, false));
    });
    return out;
  }
}

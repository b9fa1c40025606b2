package dev.gq.core.recovery;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which verdicts of a periodic reconciliation pass the Scheduler may act on, decided when they
 * arrive (the pass read the ledger a while before). A job whose state changed since the pass saw
 * it, or that ended, is skipped: the pass is stale for it. A job a runner watches is the runner's:
 * the runner sees its processes end and reads its exit record, so the pass never ends or requeues
 * it; the facts a runner cannot see are the GPUs, so of its verdict only {@code JobOrphaned} (a GPU
 * it holds is gone from a good reading; its GPUs stay off-limits while the runner keeps watching)
 * and, for an ORPHANED job, {@code JobRecovered} (they came back) are kept. A job no runner watches (an ORPHANED job whose
 * processes had gone when it was orphaned, say) is the pass's: its whole verdict is kept, and a
 * verdict to watch it gets it a runner.
 */
public final class Drift {
  private Drift() {}

  /**
   * The verdicts to act on, from what the pass found ({@code facts}) of jobs it saw in the states
   * {@code seen}, judged by {@link Recovery#recheck} on the jobs as they are in {@code l}, given the ids
   * of the jobs a runner watches now.
   */
  public static Map<Long, Recovery.Verdict> decide(Ledger l, Map<Long, JobState> seen, Map<Long, RecoveryFacts> facts,
      Set<Long> watched, Instant now) {
    Map<Long, Recovery.Verdict> verdicts = new LinkedHashMap<>();
    facts.forEach((id, f) -> {
      Job j = l.live().get(id);
      // a job that changed since the pass saw it is skipped below: no verdict on facts that are stale for it
      if (j != null && j.state() == seen.get(id)) verdicts.put(id, Recovery.recheck(j, f, now));
    });
    return actionable(l, seen, verdicts, watched);
  }

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
      List<LedgerEvent> gpus = v.events().stream().filter(e -> j.state() == JobState.ORPHANED
          ? e instanceof LedgerEvent.JobRecovered : e instanceof LedgerEvent.JobOrphaned).toList();
      if (!gpus.isEmpty()) out.put(id, new Recovery.Verdict(gpus, false));
    });
    return out;
  }
}

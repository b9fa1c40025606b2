package dev.gq.core.ledger;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.JobsRemoved;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which jobs may be deleted from the history ({@code gq rm}, {@code gq clean}): only jobs that have
 * ended, by the ledger (a live job is never deleted, whatever the history said) and by the facts
 * read from the history. The decision is one {@link JobsRemoved} naming every deleted id; the
 * Projector then deletes their rows, and the ledger frees the keys they held.
 */
public final class Deletions {
  private Deletions() {}

  /** Exactly {@code ids} (each once, ascending), or a refusal naming the first that does not exist or has not ended. */
  public static Decision<List<Long>> remove(Ledger l, List<Long> ids, Map<Long, HistoryFact> facts, Instant now) {
    for (long id : ids) {
      HistoryFact f = facts.get(id);
      Job live = l.live().get(id);
      if (f == null && live == null) return Decision.refuse("job " + id + " does not exist; nothing was deleted");
      JobState state = live != null ? live.state() : f.state();
      if (live != null || !state.terminal()) return Decision.refuse(notEnded(id, state));
    }
    return removed(List.copyOf(new TreeSet<>(ids)), now);
  }

  /**
   * Those of {@code page} that ended before {@code before} in one of {@code states} (any ended
   * state when empty), ascending; no event when none.
   */
  public static Decision<List<Long>> clean(Ledger l, List<HistoryFact> page, Set<JobState> states, Instant before,
      Instant now) {
    Set<JobState> chosen = JobState.endedAmong(states);
    TreeSet<Long> ids = new TreeSet<>();
    for (HistoryFact f : page) {
      if (chosen.contains(f.state()) && f.endTime() != null && f.endTime().isBefore(before) && !l.live().containsKey(f.jobId()))
        ids.add(f.jobId());
    }
    return removed(new ArrayList<>(ids), now);
  }

  private static Decision<List<Long>> removed(List<Long> ids, Instant now) {
    if (ids.isEmpty()) return Decision.accept(List.of(), List.of());
    return Decision.accept(List.of(new JobsRemoved(ids, now)), List.copyOf(ids));
  }

  private static String notEnded(long id, JobState state) {
    if (state == JobState.ORPHANED)
      return "job " + id + " is ORPHANED and cannot be deleted: it still holds its GPUs; see 'gq show " + id + "'";
    return "job " + id + " is " + state + " and cannot be deleted; cancel it first";
  }
}

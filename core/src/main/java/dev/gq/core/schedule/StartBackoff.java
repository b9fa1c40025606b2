package dev.gq.core.schedule;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bound on the reserve → requeue cycle, whatever sends a reserved job back to the queue (a
 * lease that cannot be taken, a daemon that stopped before the launch): a job may fail to start
 * {@link #FREE_TRIES} times in a row and be placed again at once (a lease race with another gq is
 * settled by the next reading); after that it waits 1 s, then twice as long after each further
 * failure, up to {@link #MAX_WAIT}, with the last failure as its wait reason. A launch ends the run,
 * and so does a failure-free {@link #WINDOW}. Kept in memory beside the ledger (a restart starts
 * every run anew, which costs at most {@link #FREE_TRIES} more tries); only the jobs in a run are
 * kept. Pure.
 */
public record StartBackoff(Map<Long, Run> runs) {

  /** Failed starts in a row placed again without waiting. */
  public static final int FREE_TRIES = 3;
  /** The longest wait between two starts of one job. */
  public static final Duration MAX_WAIT = Duration.ofMinutes(5);
  /** A failure this long after the previous one starts a new run. */
  public static final Duration WINDOW = Duration.ofMinutes(15);

  public static final StartBackoff NONE = new StartBackoff(Map.of());

  /** A job's current run of failed starts: how many, the last one's moment and reason. */
  public record Run(int failures, Instant lastAt, String reason) {}

  public StartBackoff {
    runs = Map.copyOf(runs);
  }

  /**
   * The runs once {@code events} (one write, decided on {@code before}, giving {@code after}) are
   * stored: a job that was STARTING and is requeued adds a failure; a job launched or no longer
   * live ends its run.
   */
  public StartBackoff after(Ledger before, Ledger after, List<LedgerEvent> events) {
    Map<Long, Run> next = null;
    for (LedgerEvent e : events) {
      if (e instanceof LedgerEvent.JobRequeued r && wasStarting(before, r.jobId())) {
        if (next == null) next = new HashMap<>(runs);
        Run prev = next.get(r.jobId());
        int n = prev == null || Duration.between(prev.lastAt(), r.at()).compareTo(WINDOW) > 0 ? 1 : prev.failures() + 1;
        next.put(r.jobId(), new Run(n, r.at(), r.reason()));
      } else if (e instanceof LedgerEvent.JobLaunched l && runs.containsKey(l.jobId())) {
        if (next == null) next = new HashMap<>(runs);
        next.remove(l.jobId());
      }
    }
    if (next == null && runs.isEmpty()) return this;
    Map<Long, Run> kept = new HashMap<>(next == null ? runs : next);
    kept.keySet().removeIf(id -> !after.live().containsKey(id));
    return kept.equals(runs) ? this : new StartBackoff(kept);
  }

  /** How long a job waits after {@code failures} failed starts in a row. */
  public static Duration wait(int failures) {
    if (failures <= FREE_TRIES) return Duration.ZERO;
    int doublings = Math.min(failures - FREE_TRIES - 1, 20);
    Duration d = Duration.ofSeconds(1L << doublings);
    return d.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : d;
  }

  /** Why each job still waiting out its back-off at {@code now} may not start yet. */
  public Map<Long, WaitReason> waiting(Instant now) {
    if (runs.isEmpty()) return Map.of();
    Map<Long, WaitReason> out = new HashMap<>();
    runs.forEach((id, run) -> {
      Instant until = run.lastAt().plus(wait(run.failures()));
      if (!now.isBefore(until)) return;
      out.put(id, new WaitReason.StartFailed(run.failures(), run.reason(), Duration.between(now, until).plusMillis(999).withNanos(0)));
    });
    return out;
  }

  private static boolean wasStarting(Ledger before, long id) {
    Job j = before.live().get(id);
    return j != null && j.state() == JobState.STARTING;
  }
}

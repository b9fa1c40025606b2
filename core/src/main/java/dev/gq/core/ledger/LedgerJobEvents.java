package dev.gq.core.ledger;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger.RecentEnd;
import dev.gq.core.ledger.Ledger.KeyHolder;
import dev.gq.core.ledger.LedgerEvent.JobAdopted;
import dev.gq.core.ledger.LedgerEvent.JobChanged;
import dev.gq.core.ledger.LedgerEvent.JobEvent;
import dev.gq.core.ledger.LedgerEvent.JobPreemptRequested;
import dev.gq.core.ledger.LedgerEvent.JobSentToCluster;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How one job's event changes the {@link Ledger}: the job's next state ({@link JobTransitions},
 * shared with the history), and with it the live jobs (an ended job leaves them), the key it holds,
 * what waits on it, its group's run of failures, the last endings and the queue's settings that
 * name it. Deterministic: no clock, no I/O; called only by {@link Ledger#apply}.
 */
final class LedgerJobEvents {
  private LedgerJobEvents() {}

  static Ledger apply(Ledger l, JobEvent event) {
    boolean created = event instanceof JobSubmitted || event instanceof JobAdopted;
    Job before = created ? null : l.live().get(event.jobId());
    if (before == null && !created)
      throw new IllegalStateException("event for a job that is not live: " + event);
    Job after = JobTransitions.next(before, event);
    // The command (argv, environment) stays in the database until launch: a queue of 100,000
    // jobs must not hold 100,000 environments.
    if (created || event instanceof JobChanged) after = sharingSpec(l, after.withoutCommand());
    long next = Math.max(l.nextId(), event.jobId() + 1);
    boolean ended = after.state().terminal();
    PersistentMap<Long, Job> m = ended ? Ledger.map(l.live()).minus(after.id()) : Ledger.map(l.live()).plus(after.id(), after);
    var w = Dependencies.apply(l.waits(), event, after);
    var s = ended ? FailFast.record(l.streaks(), after) : l.streaks();
    QueueSettings settings = l.settings();
    // a held job that leaves the queue is no longer held
    QueueSettings st = after.state() != JobState.WAITING && settings.heldJobs().contains(after.id())
        ? settings.hold(List.of(after.id()), false) : settings;
    if (event instanceof JobPreemptRequested p) st = st.preempt(p.jobId(), p.preemption());
    else if (event instanceof JobSentToCluster c) st = st.sent(c.jobId(), c.clusterId());
    else if (before != null && before.state() != after.state()) st = st.after(after, forWaiting(l, after));
    return new Ledger(next, m, keysWith(l.keys(), after), l.queueHeld(), l.holds(), l.autoHeld(), w, s,
        ended ? endingsWith(l.recentEnds(), after) : l.recentEnds(), st);
  }

  /**
   * {@code j} with the spec of the job before it (by id) when the two are equal: the jobs of a batch
   * have one spec once their commands are left out, and 100,000 copies of it took 8 MiB.
   */
  private static Job sharingSpec(Ledger l, Job j) {
    Job before = l.live().get(j.id() - 1);
    return before != null && before.spec() != j.spec() && before.spec().equals(j.spec()) ? j.withSpec(before.spec()) : j;
  }

  /** Whether the job {@code j}'s preemption named (if any) still waits, so that its GPUs are kept for it. */
  private static boolean forWaiting(Ledger l, Job j) {
    Preemption p = l.settings().preempting().get(j.id());
    if (p == null || p.forJob() == null) return false;
    Job f = l.live().get(p.forJob());
    return f != null && f.state() == JobState.WAITING;
  }

  private static List<RecentEnd> endingsWith(List<RecentEnd> recentEnds, Job j) {
    List<RecentEnd> out = new ArrayList<>(recentEnds.size() + 1);
    int from = recentEnds.size() >= Ledger.RECENT ? recentEnds.size() - Ledger.RECENT + 1 : 0;
    out.addAll(recentEnds.subList(from, recentEnds.size()));
    out.add(new RecentEnd(j.id(), j.state()));
    return out;
  }

  /** The keys with {@code j} as its key's holder, unless a newer job holds the key. */
  private static Map<String, KeyHolder> keysWith(Map<String, KeyHolder> keys, Job j) {
    String key = j.spec().key();
    if (key == null) return keys;
    KeyHolder cur = keys.get(key);
    if (cur != null && cur.jobId() > j.id()) return keys;
    return Ledger.map(keys).plus(key, new KeyHolder(j.id(), j.state()));
  }
}

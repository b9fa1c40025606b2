package dev.gq.core.ledger;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What follows in the same write from events the Scheduler is about to store: an automatic retry
 * for each job that exited non-zero with retries left, a fail-fast hold of each group whose last
 * ended jobs all failed quickly (never triggered by endings that start-up recovery concluded),
 * the resume of each job preempted with {@code --requeue}, and the cancellation of each waiting
 * job whose {@code --after-ok} job ended without success, repeated until nothing more follows. Pure.
 */
public final class Consequences {
  private Consequences() {}

  /**
   * {@code events} followed by their consequences. {@code byRecovery}: the endings among them were
   * concluded at start-up, not watched, so they sit in a group's run of failures but hold nothing.
   */
  public static List<LedgerEvent> of(Ledger before, List<LedgerEvent> events, FailFast rule, boolean byRecovery, SubmitContext in) {
    if (events.isEmpty()) return events;
    List<LedgerEvent> all = new ArrayList<>(events);
    List<Job> failed = new ArrayList<>();
    Ledger l = before;
    for (LedgerEvent e : events) {
      Job ended = endedBy(l, e);
      Preemption preempted = ended != null && ended.state() == JobState.PREEMPTED
          ? l.settings().preempting().get(ended.id()) : null;
      l = l.apply(e);
      if (preempted != null && preempted.requeue()) l = add(all, l, resume(l, ended, in));
      if (ended == null || ended.state() != JobState.FAILED) continue;
      failed.add(ended);
      // a cluster job's retries are Slurm requeues from its wrapper, not new attempts here
      if (e instanceof JobExited && ended.spec().retries() > 0 && !ended.spec().onCluster()) l = add(all, l, retry(l, ended, in));
    }
    if (!byRecovery) {
      Set<String> groups = new LinkedHashSet<>();
      failed.forEach(j -> { if (j.spec().group() != null) groups.add(j.spec().group()); });
      for (String g : groups) {
        String reason = rule.holdReason(l, g);
        if (reason != null) l = add(all, l, new GroupHeld(g, reason, true, in.now()));
      }
    }
    for (List<LedgerEvent> c = Dependencies.cancellations(l, in.now()); !c.isEmpty(); c = Dependencies.cancellations(l, in.now()))
      for (LedgerEvent e : c) l = add(all, l, e);
    return all;
  }

  /** The job as {@code e} leaves it when {@code e} ends it; null otherwise. */
  private static Job endedBy(Ledger l, LedgerEvent e) {
    if (!(e instanceof JobEvent je) || e instanceof JobSubmitted) return null;
    Job before = l.live().get(je.jobId());
    if (before == null) return null;
    Job after = JobTransitions.next(before, je);
    return after.state().terminal() ? after : null;
  }

  /** The retry of {@code failed}; it shares the failed job's stored command when the ledger does not hold it. */
  private static LedgerEvent retry(Ledger l, Job failed, SubmitContext in) {
    long id = l.nextId();
    var e = new JobSubmitted(id, Retries.attemptSpec(failed.spec().withRetries(failed.spec().retries() - 1), false, null), in.tags().get(),
        in.logPaths().apply(id), failed.lineage(), List.of(), in.now());
    return failed.spec().hasCommand() ? e : e.sharing(failed.id(), e.spec());
  }

  /** The resume of {@code preempted} (asked for with its preemption): from its newest checkpoint when it starts. */
  private static LedgerEvent resume(Ledger l, Job preempted, SubmitContext in) {
    long id = l.nextId();
    var e = new JobSubmitted(id, preempted.spec().resuming(null), in.tags().get(), in.logPaths().apply(id),
        preempted.lineage(), List.of(), in.now());
    return preempted.spec().hasCommand() ? e : e.sharing(preempted.id(), e.spec());
  }

  private static Ledger add(List<LedgerEvent> all, Ledger l, LedgerEvent e) {
    all.add(e);
    return l.apply(e);
  }
}

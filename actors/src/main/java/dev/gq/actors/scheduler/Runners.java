package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobAdopted;
import dev.gq.core.ledger.LedgerEvent.JobCancelRequested;
import dev.gq.core.ledger.LedgerEvent.JobPreemptRequested;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.schedule.Decided;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The Scheduler's runners, one for each job it watches: started by the stored events that reserve or
 * adopt a job (or by a reconciliation that finds it still running), told to cancel or preempt by the
 * stored requests to, forgotten once they report their job's end. A runner that stops without doing
 * so has failed: its job's real state is not known, so the reconciler checks it now; a job whose
 * runners keep failing is left to the periodic passes, so a runner that fails at once each time
 * cannot make a loop.
 */
final class Runners {
  /** A job's runners that fail more often than this are left to the periodic passes. */
  private static final int MAX_QUICK_CHECKS = 3;

  private final ActorContext<SchedulerProtocol.Command> ctx;
  private final SchedulerEffects effects;
  private final Map<Long, ActorRef<JobRunner.Command>> runners = new HashMap<>();
  /** How many runners of each job stopped without reporting its end. */
  private final Map<Long, Integer> failures = new HashMap<>();

  Runners(ActorContext<SchedulerProtocol.Command> ctx, SchedulerEffects effects) {
    this.ctx = ctx;
    this.effects = effects;
  }

  /** The jobs a runner watches. */
  Set<Long> watched() {
    return runners.keySet();
  }

  /** Job {@code id}'s runner reported its end. */
  void ended(long id) {
    runners.remove(id);
    failures.remove(id);
  }

  /** Job {@code id}'s runner gave its launch back (another gq took a GPU's lease). */
  void deferred(long id) {
    runners.remove(id);
  }

  /**
   * What one stored decision's {@code events} ask of the runners; {@code after}: the ledger as they left
   * it; {@code inHand}: the submissions of the write that carry their command; {@code totals}: the
   * total memory of a reservation's GPUs.
   */
  void follow(Ledger after, List<LedgerEvent> events, Map<Long, JobSubmitted> inHand,
      Function<JobReserved, Map<String, Long>> totals) {
    for (LedgerEvent e : events) {
      switch (e) {
        case JobReserved r -> start(CommandsInHand.with(after.live().get(r.jobId()), inHand), false, totals.apply(r));
        case JobAdopted a -> start(after.live().get(a.jobId()), true, Map.of());
        case JobCancelRequested r -> tell(r.jobId(), new JobRunner.Cancel());
        case JobPreemptRequested r -> tell(r.jobId(), new JobRunner.Preempt(r.preemption()));
        default -> {}
      }
    }
  }

  /** Gives a runner to each job a reconciliation found still running that has none. */
  void watch(Ledger after, Decided<?> d) {
    for (var e : d.watch().entrySet()) {
      Job j = after.live().get(e.getKey());
      if (e.getValue().watch() && j != null && !runners.containsKey(j.id())) {
        start(j, true, Map.of());
        // a preemption under way when the daemon stopped is finished by the new runner
        var p = after.settings().preempting().get(j.id());
        if (j.state() == JobState.PREEMPTING && p != null) tell(j.id(), new JobRunner.Preempt(p));
      }
    }
  }

  /** {@code runner} of job {@code id} stopped; {@code l}: the ledger now. */
  void stopped(Ledger l, long id, ActorRef<JobRunner.Command> runner) {
    if (!runners.remove(id, runner)) return;
    Job j = l.live().get(id);
    if (j == null || !j.state().active() || j.spec().onCluster()) return;
    int n = failures.merge(id, 1, Integer::sum);
    if (n > MAX_QUICK_CHECKS) {
      ctx.getLog().warn("job {}: its runner stopped {} times without reporting the job's end; the periodic pass checks it", id, n);
      return;
    }
    ctx.getLog().warn("job {}: its runner stopped without reporting the job's end; checking the job now", id);
    effects.checkNow(ctx, List.of(j), ctx.getSelf());
  }

  private void tell(long id, JobRunner.Command c) {
    ActorRef<JobRunner.Command> runner = runners.get(id);
    if (runner != null) runner.tell(c);
  }

  /** Starts {@code j}'s runner and watches it, so that a runner that stops leaves its job unwatched. */
  private void start(Job j, boolean reattach, Map<String, Long> totalMiB) {
    ActorRef<JobRunner.Command> r = effects.startRunner(ctx, j, reattach, totalMiB);
    ctx.watchWith(r, new SchedulerProtocol.RunnerStopped(j.id(), r));
    runners.put(j.id(), r);
  }
}

package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Clock;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * What the Scheduler needs from the rest of the daemon, as one small interface so tests can give
 * it fakes: the clock, where logs go, starting runners and the reconciler, feeding the history,
 * asking the watcher for a fresh reading, the fail-fast rule and the bound on backfill.
 */
public interface SchedulerDeps {
  Clock clock();

  int snapshotEvery();

  String logPath(long jobId);

  /** Spawns the runner of {@code job}: launching it, or (reattach) watching processes that already run. */
  ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach);

  /**
   * As above for a job just reserved, with the total memory of its GPUs (MiB by UUID) in the reading
   * its reservation was made on: a shared job takes its shares against them.
   */
  default ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
      java.util.Map<String, Long> totalMiB) {
    return startRunner(ctx, job, reattach);
  }

  /** Asks the reconciler to reconcile {@code ledger}'s live jobs once; its result comes back as Reconciled. */
  void startReconciler(ActorContext<Scheduler.Command> ctx, Ledger ledger, ActorRef<Scheduler.Command> scheduler);

  /**
   * Asks the reconciler to check {@code jobs} now, with the periodic pass's rules (their runner
   * stopped without reporting their end); its verdicts come back as Drifted.
   */
  default void checkNow(ActorContext<Scheduler.Command> ctx, List<Job> jobs, ActorRef<Scheduler.Command> scheduler) {}

  /** Hands persisted events, numbered from {@code firstSeq}, to the history. */
  void project(long firstSeq, List<LedgerEvent> events);

  /** Asks the GPU watcher for a reading now. */
  void pollNow();

  /** Logs state changes once, after they are stored. */
  void logEvents(List<LedgerEvent> events);

  /** The highest job id that has files in logs/ or run/ at start-up (0: none); no id up to it is issued again. */
  default long highestJobFileId() {
    return 0;
  }

  /**
   * At start-up, after the replay: the line that stops the start because the journal does not know
   * jobs that ran here (its last writes were lost), or null when it knows them all (or the loss is accepted).
   */
  default String lostHistory(Ledger ledger) {
    return null;
  }

  /** Start-up must not go on: {@code line} says why. */
  default void refuseStart(String line) {}

  /** The Scheduler could not replay its events (a damaged journal, say); the daemon must not go on. */
  default void replayFailed(Throwable cause) {}

  /** The journal's file, named in the line that refuses a request whose write failed. */
  default java.nio.file.Path journalPath() {
    return java.nio.file.Path.of("gq.db");
  }

  /** A short sentence when the disk holding the data directory is full, else null. */
  default String diskFullNote() {
    return null;
  }

  /** A job's end could not be written: gives up the disk's reserve file, so that the retry finds room. */
  default void giveUpReserve() {}

  /** The journal takes writes again after failing: the reserve file is made again when there is room. */
  default void journalWritable() {}

  /** When a group is held after quick failures (GQ_FAIL_FAST_COUNT, GQ_FAIL_FAST_SECONDS). */
  default FailFast failFast() {
    return FailFast.DEFAULT;
  }

  /** How long the first job that does not fit waits before GPUs gather for it (GQ_GATHER_AFTER_SECONDS). */
  default java.time.Duration gatherAfter() {
    return dev.gq.core.alloc.Allocator.GATHER_AFTER;
  }

  /** How long a running job's GPUs show 0 % utilisation before it is idle (GQ_IDLE_AFTER_SECONDS; zero: never). */
  default java.time.Duration idleAfter() {
    return dev.gq.core.schedule.DecisionContext.IDLE_AFTER;
  }

  /** How many CPU-only jobs may be active at once (GQ_MAX_CPU_JOBS). */
  default int maxCpuJobs() {
    return 64;
  }

  /** The memory kept free on a shared GPU beyond its shared jobs' declarations, MiB (GQ_SHARE_HEADROOM). */
  default long shareHeadroomMiB() {
    return dev.gq.core.alloc.PlanRules.HEADROOM_MIB;
  }

  /** What the daemon last read of the shared machine: the policy, everyone else's demand (none: a machine of its own). */
  default dev.gq.core.fair.FairView fair() {
    return dev.gq.core.fair.FairView.NONE;
  }

  /**
   * After a stored decision, and at the end of start-up: this user's jobs in {@code ledger}, published
   * as its demand when the counts changed, and the heap its queue needs noted for the next start.
   */
  default void demand(Ledger ledger) {}
}

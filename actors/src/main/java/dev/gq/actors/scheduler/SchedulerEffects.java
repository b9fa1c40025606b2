package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.fair.FairView;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * What the Scheduler does to the rest of the daemon and reads from it, each after a stored write or
 * at start-up: starting runners and the reconciler, feeding the history, asking the watcher for a
 * reading, logging, the start-up checks and refusals, the disk's reserve, and the shared machine. The
 * daemon implements every method (no defaults, so that none is missed); tests give a class of their own.
 */
public interface SchedulerEffects {
  /**
   * Spawns the runner of {@code job}: launching it, or (reattach) watching processes that already
   * run; {@code totalMiB}: the total memory of its GPUs (MiB by UUID) in the reading its reservation
   * was made on, against which a shared job takes its shares (empty when reattaching).
   */
  ActorRef<JobRunner.Command> startRunner(ActorContext<SchedulerProtocol.Command> ctx, Job job, boolean reattach,
      Map<String, Long> totalMiB);

  /** Asks the reconciler to reconcile {@code ledger}'s live jobs once; its result comes back as Reconciled. */
  void startReconciler(ActorContext<SchedulerProtocol.Command> ctx, Ledger ledger, ActorRef<SchedulerProtocol.Command> scheduler);

  /**
   * Asks the reconciler to check {@code jobs} now, with the periodic pass's rules (their runner
   * stopped without reporting their end); its verdicts come back as Drifted.
   */
  void checkNow(ActorContext<SchedulerProtocol.Command> ctx, List<Job> jobs, ActorRef<SchedulerProtocol.Command> scheduler);

  /** Hands stored events, numbered from {@code firstSeq}, to the history (and wakes those who follow it). */
  void project(long firstSeq, List<LedgerEvent> events);

  /** Asks the GPU watcher for a reading now. */
  void pollNow();

  /** Logs state changes once, after they are stored. */
  void logEvents(List<LedgerEvent> events);

  /**
   * At start-up, after the replay: the line that stops the start because the journal does not know
   * jobs that ran here (its last writes were lost), or null when it knows them all (or the loss is accepted).
   */
  String lostHistory(Ledger ledger);

  /** Start-up must not go on: {@code line} says why. */
  void refuseStart(String line);

  /** The Scheduler could not replay its events (a damaged journal, say); the daemon must not go on. */
  void replayFailed(Throwable cause);

  /** A short sentence when the disk holding the data directory is full, else null. */
  String diskFullNote();

  /** A job's end could not be written: gives up the disk's reserve file, so that the retry finds room. */
  void giveUpReserve();

  /** The journal takes writes again after failing: the reserve file is made again when there is room. */
  void journalWritable();

  /** What the daemon last read of the shared machine: the policy, everyone else's demand ({@link FairView#NONE}: a machine of its own). */
  FairView fair();

  /** After a stored decision: this user's jobs in {@code ledger}, published as its demand when the counts changed. */
  void demand(Ledger ledger);
}

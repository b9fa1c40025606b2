package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.schedule.Request;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * The {@link Scheduler}'s messages. The Scheduler implements this interface, so they read as
 * {@code Scheduler.Command}, {@code Scheduler.Ask} and so on wherever they are sent; the classes
 * that help it (Runners, StoredEffects, UnstoredWrites, SchedulerDeps) name them here.
 */
public interface SchedulerProtocol {
  sealed interface Command {}
  /** A user's request, answered with its result or refused with the one line to show. */
  record Ask<R>(Request<R> request, ActorRef<StatusReply<R>> replyTo) implements Command {}
  record GetView(ActorRef<SchedulerView> replyTo) implements Command {}
  /** The ledger alone, without the classification and plan a view computes (for the queue's and the groups' holds). */
  record GetLedger(ActorRef<Ledger> replyTo) implements Command {}
  record AwaitReady(ActorRef<Done> replyTo) implements Command {}
  /** The sequence number of the last stored event, for a reader that waits for the history to have it. */
  record GetSeqNr(ActorRef<Long> replyTo) implements Command {}
  /** The GPUs as classified from the latest reading, without the plan a view computes (for the usage record); empty before one. */
  record GetGpus(ActorRef<List<GpuStatus>> replyTo) implements Command {}
  /**
   * A fact from a runner, the GPU watcher, the reconciler or the cluster bridge: decided with the
   * requests, answered to nobody. Runners hold {@link Scheduler#facts}, which wraps each in one.
   */
  record Report(Request.Fact fact) implements Command {}
  /** A runner stopped (the Scheduler watches each): its job is no longer watched; after a failure the reconciler checks it at once. */
  record RunnerStopped(long jobId, ActorRef<JobRunner.Command> runner) implements Command {}

  /** Decide what came during a write: the Scheduler sends it to itself when the write is stored; nobody else does. */
  enum Flush implements Command { INSTANCE }
}

package dev.gq.actors.cluster;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.schedule.Request;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/**
 * What a cluster pass asks of the Scheduler, waiting for each answer (the {@link ClusterBridge} runs
 * on the blocking dispatcher): the ledger as it is, a decision on what Slurm said, and the jobs that
 * could not be sent.
 */
final class ClusterAsks {
  private static final Duration ASK = Duration.ofSeconds(30);

  private final ActorRef<Scheduler.Command> scheduler;
  private final org.apache.pekko.actor.typed.Scheduler system;

  ClusterAsks(ActorRef<Scheduler.Command> scheduler, org.apache.pekko.actor.typed.Scheduler system) {
    this.scheduler = scheduler;
    this.system = system;
  }

  /** The ledger as it is now. */
  Ledger ledger() throws Exception {
    return AskPattern.<Scheduler.Command, Ledger>ask(scheduler, Scheduler.GetLedger::new, ASK, system)
        .toCompletableFuture().get(ASK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Asks the Scheduler to decide {@code r} and waits for its answer. */
  <R> R ask(Request<R> r) throws Exception {
    return AskPattern.<Scheduler.Command, StatusReply<R>>ask(scheduler, replyTo -> new Scheduler.Ask<>(r, replyTo), ASK, system)
        .toCompletableFuture().get(ASK.toMillis(), TimeUnit.MILLISECONDS).getValue();
  }

  /** Tells the Scheduler that jobs could not be sent, for good. */
  void failed(List<Long> ids, LaunchProblem problem) {
    for (long id : ids) scheduler.tell(new Scheduler.Report(new Request.LaunchFailed(id, problem)));
  }
}

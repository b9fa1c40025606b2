package dev.gq.actors.socket;

import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerView;
import dev.gq.cli.ApiException;
import dev.gq.core.schedule.Request;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/**
 * How a request reaches the actors from a client's thread: an ask of the Scheduler or the
 * Projector, awaited within one timeout, a refusal becoming the {@link ApiException} with its
 * line. {@link #synced()} is the Scheduler's view once the history has every event it has (asking
 * the Projector only when the history has not committed them yet).
 */
final class SchedulerAsks {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final ActorRef<Projector.Command> projector;
  /** The last event the history committed, read without asking the Projector. */
  private final java.util.function.LongSupplier historyAt;

  SchedulerAsks(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      java.util.function.LongSupplier historyAt) {
    this.system = system;
    this.scheduler = scheduler;
    this.projector = projector;
    this.historyAt = historyAt;
  }

  /** The Scheduler's answer to {@code command}, or its refusal as an {@link ApiException}. */
  <T> T ask(Request<T> request) throws ApiException {
    return await(AskPattern.<Scheduler.Command, T>askWithStatus(scheduler, r -> new Scheduler.Ask<>(request, r), TIMEOUT,
        system.scheduler()));
  }

  /** The Scheduler's answer to a command that cannot be refused. */
  <T> T askPlain(Function<ActorRef<T>, Scheduler.Command> command) throws ApiException {
    return await(AskPattern.<Scheduler.Command, T>ask(scheduler, command::apply, TIMEOUT, system.scheduler()));
  }

  SchedulerView view() throws ApiException {
    return askPlain(Scheduler.GetView::new);
  }

  /** The Scheduler's view, once the history has applied every event up to it. */
  SchedulerView synced() throws ApiException {
    SchedulerView v = view();
    caughtUp(v.seqNr());
    return v;
  }

  /**
   * Returns once the history has every event the Scheduler had stored when asked: for a read of the
   * history alone, which needs no view (a view plans every waiting job again).
   */
  void historySynced() throws ApiException {
    caughtUp(askPlain(Scheduler.GetSeqNr::new));
  }

  /** Returns once the history has every event up to {@code seqNr}. */
  void caughtUp(long seqNr) throws ApiException {
    // the history committed these events already (the common case): nothing to wait for
    if (historyAt.getAsLong() >= seqNr) return;
    await(AskPattern.<Projector.Command, Done>ask(projector, r -> new Projector.Sync(seqNr, r), TIMEOUT,
        system.scheduler()));
  }

  private static <T> T await(CompletionStage<T> stage) throws ApiException {
    try {
      return stage.toCompletableFuture().get(TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof StatusReply.ErrorMessage m) throw new ApiException(m.getMessage());
      throw new ApiException("the daemon could not answer: " + c.getMessage() + "; see the daemon log");
    } catch (TimeoutException e) {
      throw new ApiException("the daemon did not answer within " + TIMEOUT.toSeconds() + " s; see the daemon log");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException("interrupted");
    }
  }
}

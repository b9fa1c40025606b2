package dev.gq.actors.notify;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.projector.Projector;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.SerializationExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the notifications the stored events call for, following the journal after its own stored
 * cursor ({@link NotifierPass}). Told {@link Poke} after each write of the Scheduler, and every
 * {@code every} besides (for retries after a failed pass), it runs one pass at a time on its own
 * thread and hands the messages to each target's own lane, so a target that hangs delays only its
 * own later messages, never another target's and never scheduling: the Scheduler only tells it. A
 * lane that finishes an event's messages pokes it, so the cursor is stored past them at once.
 * Stopping it interrupts the pass and the lanes; what was not delivered is delivered after the restart.
 */
public final class Notifier {
  private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);

  public sealed interface Command {}
  /** New events are stored. */
  public record Poke() implements Command {}
  private record Tick() implements Command {}
  private record PassDone(Throwable failure) implements Command {}

  private Notifier() {}

  public static Behavior<Command> create(Notifications notifications, JobHistory history, JournalReader journal,
      ActorRef<Projector.Command> projector, Path dataDir, Duration every) {
    return create(notifications, history, journal, new WriteEnds(), projector, dataDir, every, Beat.NONE);
  }

  /**
   * The same, told the end of each write by {@code writes} (which the Scheduler's writes feed), and
   * telling {@code beat} of each pass and each that failed.
   */
  public static Behavior<Command> create(Notifications notifications, JobHistory history, JournalReader journal,
      WriteEnds writes, ActorRef<Projector.Command> projector, Path dataDir, Duration every,
      Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gq-notifier");
        t.setDaemon(true);
        return t;
      });
      ActorRef<Command> self = ctx.getSelf();
      var pass = new NotifierPass(journal, history, writes, notifications, dataDir,
          SerializationExtension.get(Adapter.toClassic(ctx.getSystem())), seq -> sync(ctx, projector, seq), () -> self.tell(new Poke()));
      notifications.behindFrom(pass::behind);
      timers.startTimerWithFixedDelay(new Tick(), every);
      ctx.getSelf().tell(new Poke());
      return new Loop(ctx, thread, pass, beat, notifications).idle();
    }));
  }

  /** Waits until the history holds every event up to {@code seq}, so the facts read are not older than the events. */
  private static void sync(ActorContext<Command> ctx, ActorRef<Projector.Command> projector, long seq) {
    try {
      AskPattern.<Projector.Command, Done>ask(projector, r -> new Projector.Sync(seq, r),
          Duration.ofSeconds(30), ctx.getSystem().scheduler()).toCompletableFuture().get(31, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (Exception e) {
      throw new IllegalStateException("the job history did not catch up: " + e.getMessage(), e);
    }
  }

  private record Loop(ActorContext<Command> ctx, ExecutorService thread, NotifierPass pass, Beat beat,
      Notifications notifications) {
    Behavior<Command> idle() {
      return Behaviors.receive(Command.class)
          .onMessage(Poke.class, m -> start())
          .onMessage(Tick.class, m -> start())
          .onSignal(PostStop.class, s -> stopIdle())
          .onSignal(PreRestart.class, s -> stopIdle())
          .build();
    }

    Behavior<Command> running(boolean again) {
      return Behaviors.receive(Command.class)
          .onMessage(Poke.class, m -> running(true))
          .onMessage(Tick.class, m -> Behaviors.same())
          .onMessage(PassDone.class, m -> {
            if (m.failure() != null) LOG.warn("notifications: {}; will try again", m.failure().getMessage());
            if (m.failure() == null) beat.worked();
            else beat.failing(Supervision.why(m.failure()) + "; it tries again");
            return again ? start() : idle();
          })
          .onSignal(PostStop.class, s -> stop())
          .onSignal(PreRestart.class, s -> stop())
          .build();
    }

    private Behavior<Command> start() {
      ctx.pipeToSelf(CompletableFuture.runAsync(() -> {
        try {
          pass.run();
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      }, thread), (ok, failure) -> new PassDone(failure == null ? null : cause(failure)));
      return running(false);
    }

    /** No pass runs: the cursor moved past what was sent is stored before the thread ends. */
    private Behavior<Command> stopIdle() {
      thread.execute(pass::flush);
      thread.shutdown();
      notifications.stop();
      return Behaviors.same();
    }

    private Behavior<Command> stop() {
      thread.shutdownNow();
      notifications.stop();
      return Behaviors.same();
    }

    private static Throwable cause(Throwable t) {
      return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
  }
}

package dev.gq.actors.health;

import java.util.function.Consumer;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Sees every start, message and signal of an actor: runs {@code check} before each message (where
 * tests inject failures) and tells {@code failed} of each failure, which then goes on to the
 * actor's supervisor unchanged. The daemon's parts ({@link Supervision}) and the job runners use it.
 */
public final class FailureWatch<T> extends BehaviorInterceptor<T, T> {
  private final Runnable check;
  private final Consumer<Throwable> failed;

  @SuppressWarnings("unchecked")
  private FailureWatch(Runnable check, Consumer<Throwable> failed) {
    super((Class<T>) (Class<?>) Object.class);
    this.check = check;
    this.failed = failed;
  }

  /** {@code behavior}, watched so. */
  public static <T> Behavior<T> around(Behavior<T> behavior, Runnable check, Consumer<Throwable> failed) {
    return Behaviors.intercept(() -> new FailureWatch<>(check, failed), behavior);
  }

  @Override
  public Behavior<T> aroundStart(TypedActorContext<T> ctx, PreStartTarget<T> target) {
    try {
      return target.start(ctx);
    } catch (RuntimeException | Error e) {
      failed.accept(e);
      throw e;
    }
  }

  @Override
  public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
    try {
      check.run();
      return target.apply(ctx, msg);
    } catch (RuntimeException | Error e) {
      failed.accept(e);
      throw e;
    }
  }

  @Override
  public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
    try {
      return target.apply(ctx, signal);
    } catch (RuntimeException | Error e) {
      failed.accept(e);
      throw e;
    }
  }
}

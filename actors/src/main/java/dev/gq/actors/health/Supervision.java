package dev.gq.actors.health;

import java.time.Duration;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the guardian runs each part of the daemon: a failure is logged in one line naming the part,
 * recorded in {@link PartHealth}, and a part that can start again ({@link Part#restartable}) does,
 * after a back-off that grows from {@code min} to {@code max}; one that fails {@code maxRestarts}
 * times with no quiet {@code resetAfter} between, or cannot start again, stops, and the guardian,
 * which watches it, stops the daemon. Injected test failures ({@link Faults}) enter here.
 */
public final class Supervision {
  private static final Logger LOG = LoggerFactory.getLogger(Supervision.class);

  /** The restart back-off of the restartable parts. */
  public record Backoff(Duration min, Duration max, int maxRestarts, Duration resetAfter) {
    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), 10, Duration.ofMinutes(2));
  }

  private Supervision() {}

  /** {@code behavior} as the supervised {@code part}. */
  public static <T> Behavior<T> supervised(Part part, Behavior<T> behavior, PartHealth health, Faults faults, Backoff b) {
    Behavior<T> watched = Behaviors.intercept(() -> new Watch<>(part, health, faults), behavior);
    if (!part.restartable())
      return Behaviors.supervise(watched).onFailure(Throwable.class, SupervisorStrategy.stop().withLoggingEnabled(false));
    return Behaviors.supervise(watched).onFailure(Exception.class,
        SupervisorStrategy.restartWithBackoff(b.min(), b.max(), 0.2).withMaxRestarts(b.maxRestarts())
            .withResetBackoffAfter(b.resetAfter()).withLoggingEnabled(false));
  }

  /** A failure as one line: the deepest cause's message, or its kind when it has none. */
  public static String why(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String m = root.getMessage();
    String first = m == null ? "" : m.strip().lines().findFirst().orElse("");
    return first.isEmpty() ? root.getClass().getSimpleName() : first;
  }

  /** Sees every message and signal of a part: injects test failures, logs and records real ones. */
  private static final class Watch<T> extends BehaviorInterceptor<T, T> {
    private final Part part;
    private final PartHealth health;
    private final Faults faults;

    @SuppressWarnings("unchecked")
    Watch(Part part, PartHealth health, Faults faults) {
      super((Class<T>) (Class<?>) Object.class);
      this.part = part;
      this.health = health;
      this.faults = faults;
    }

    @Override
    public Behavior<T> aroundStart(TypedActorContext<T> ctx, PreStartTarget<T> target) {
      try {
        return target.start(ctx);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    @Override
    public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
      try {
        faults.check(part);
        return target.apply(ctx, msg);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    @Override
    public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
      try {
        return target.apply(ctx, signal);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    private void failed(Throwable e) {
      String why = why(e);
      if (part.restartable() && e instanceof Exception) {
        health.restarting(part, why);
        LOG.error("{} failed ({}); starting it again after a pause", part.text(), why, e);
      } else {
        LOG.error("{} failed ({})", part.text(), why, e);
      }
    }
  }
}

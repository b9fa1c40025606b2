package dev.gq.actors.health;

import java.time.Duration;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
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
    Behavior<T> watched = FailureWatch.around(behavior, () -> faults.check(part), e -> failed(part, health, e));
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

  /** A part's failure: logged in one line naming it, and recorded when the part starts again. */
  private static void failed(Part part, PartHealth health, Throwable e) {
    String why = why(e);
    if (part.restartable() && e instanceof Exception) {
      health.restarting(part, why);
      LOG.error("{} failed ({}); starting it again after a pause", part.text(), why, e);
    } else {
      LOG.error("{} failed ({})", part.text(), why, e);
    }
  }
}

package dev.gq.core.job;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * When a job's time limit falls and how long a runner's timer may wait for it. The timer waits at
 * most {@link #LONGEST_WAIT} (the actor system's timers refuse waits of about 248 days and more),
 * and a limit too far away to be an instant ({@code --time 999999w} from a job that started now) is
 * never reached: a timer that fires before the limit simply waits again.
 */
public final class TimeLimits {
  /** The longest single wait of a runner's limit timer; it waits again when it fires early. */
  public static final Duration LONGEST_WAIT = Duration.ofDays(7);

  private TimeLimits() {}

  /** The moment {@code limit} after {@code start}, or null when it lies beyond the last instant Java knows. */
  public static Instant deadline(Instant start, Duration limit) {
    try {
      return start.plus(limit);
    } catch (ArithmeticException | DateTimeException e) {
      return null;
    }
  }

  /** How long a timer set {@code now} waits for the limit: zero when it has passed, at most {@link #LONGEST_WAIT}. */
  public static Duration wait(Instant start, Duration limit, Instant now) {
    Instant end = deadline(start, limit);
    if (end == null) return LONGEST_WAIT;
    if (!end.isAfter(now)) return Duration.ZERO;
    Duration left = Duration.between(now, end);
    return left.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : left;
  }

  /** Whether the job that started at {@code start} has run its {@code limit} by {@code now}. */
  public static boolean reached(Instant start, Duration limit, Instant now) {
    Instant end = deadline(start, limit);
    return end != null && !end.isAfter(now);
  }
}

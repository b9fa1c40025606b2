package dev.gq.actors.scheduler;

import java.time.Instant;

/**
 * Whether the journal takes writes: the cause of the last write that failed, until one succeeds.
 * Set by {@link CheckedJournal} (which sees each write's outcome and its cause) and by the
 * Scheduler (which sees its own writes fail and succeed); read by the Scheduler for the refusal it
 * sends and by {@code gq daemon status}. One journal per daemon process, so the state is the
 * process's.
 */
public final class JournalWrites {
  private record Failure(String cause, Instant since) {}

  private static volatile Failure failure;

  private JournalWrites() {}

  /** A write failed; {@code cause}: why, in words (null when not known). The first failure's moment is kept. */
  static void failed(String cause) {
    Failure f = failure;
    Instant since = f == null ? Instant.now() : f.since();
    String why = cause != null ? cause : f != null ? f.cause() : "the write failed; the daemon log has the details";
    failure = new Failure(why, since);
  }

  /** A write succeeded. */
  static void stored() {
    failure = null;
  }

  /** Why the journal cannot be written, or null when its last write succeeded. */
  public static String problem() {
    Failure f = failure;
    return f == null ? null : f.cause();
  }

  /** Since when writes fail, or null. */
  public static Instant failingSince() {
    Failure f = failure;
    return f == null ? null : f.since();
  }

  /**
   * The one line for a request whose write failed: where, why ({@code full}, the full disk's note,
   * before {@code cause}), and what to do.
   */
  public static String refusal(java.nio.file.Path journal, String full, String cause) {
    String why = full != null ? full : cause;
    return "cannot write the journal (" + journal + "): " + why + "; nothing was changed: "
        + (full != null ? "free some space there and try again" : "try again; the daemon log has the details");
  }

  /**
   * The status line while writes fail: since when, why ({@code full} before the write's own cause),
   * and what gq does; null while the journal takes writes.
   */
  public static String status(java.nio.file.Path journal, String full) {
    Failure f = failure;
    if (f == null) return null;
    return "cannot be written since " + f.since().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " (" + journal + "): "
        + (full != null ? full : f.cause()) + "; requests that change anything are refused, and the ends of jobs are"
        + " written as soon as it takes writes again";
  }

  /** The cause of a failed write in one line: the innermost message, without Java class names. */
  static String cause(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) c = c.getCause();
    String m = c.getMessage();
    if (m == null || m.isBlank()) return c.getClass().getSimpleName();
    return m.lines().findFirst().orElse(m).strip();
  }
}

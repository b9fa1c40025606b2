package dev.gq.actors.scheduler;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Whether the journal takes writes: the cause of the last write that failed, until one succeeds.
 * Set by {@link CheckedJournal} (which sees why a write failed) and by the Scheduler (which sees its
 * own writes fail and succeed); read by the Scheduler for the refusal it
 * sends and by {@code gq daemon status}. One journal per daemon process, so the state is the
 * process's.
 */
public final class JournalWrites {
  private record WriteFailure(String cause, Instant since) {}

  private static volatile WriteFailure failure;

  private JournalWrites() {}

  /** A write failed; {@code cause}: why, in words (null when not known). The first failure's moment is kept. */
  static void failed(String cause) {
    WriteFailure f = failure;
    Instant since = f == null ? Instant.now() : f.since();
    String why = cause != null ? cause : f != null ? f.cause() : "the journal refused the write";
    failure = new WriteFailure(why, since);
  }

  /** A write succeeded. */
  static void stored() {
    failure = null;
  }

  /** Why the journal cannot be written, or null when its last write succeeded. */
  public static String problem() {
    WriteFailure f = failure;
    return f == null ? null : f.cause();
  }

  /** Since when writes fail, or null. */
  public static Instant failingSince() {
    WriteFailure f = failure;
    return f == null ? null : f.since();
  }

  /**
   * The one line for a request whose write failed: where, why ({@code full}, the full disk's note,
   * before {@code cause}), and what to do.
   */
  public static String refusal(Path journal, String full, String cause) {
    String why = full != null ? full : cause;
    return "cannot write the journal (" + journal + "): " + why + "; nothing was changed: "
        + (full != null ? "free some space there and try again" : "try again; the daemon log has the details");
  }

  /**
   * The status line while writes fail: since when, why ({@code full} before the write's own cause),
   * and what gq does; null while the journal takes writes.
   */
  public static String status(Path journal, String full) {
    WriteFailure f = failure;
    if (f == null) return null;
    return "cannot be written since " + f.since().truncatedTo(ChronoUnit.SECONDS) + " (" + journal + "): "
        + (full != null ? full : f.cause()) + "; requests that change anything are refused, and the ends of jobs are"
        + " written as soon as it takes writes again";
  }

  /**
   * The cause of a failed write in one line, without Java class names: SQLite's own reason where the
   * chain (causes and suppressed) has one other than the failed commit that follows it, else the
   * innermost message.
   */
  static String cause(Throwable t) {
    ArrayDeque<Throwable> todo = new ArrayDeque<>(List.of(t));
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Throwable innermost = t;
    while (!todo.isEmpty()) {
      Throwable c = todo.poll();
      if (!seen.add(c)) continue;
      String m = c.getMessage();
      if (m != null && m.contains("[SQLITE_") && !m.contains("no transaction is active")) return firstLine(m);
      if (c.getCause() != null) {
        todo.add(c.getCause());
        if (c == innermost) innermost = c.getCause();
      }
      todo.addAll(List.of(c.getSuppressed()));
    }
    String m = innermost.getMessage();
    // only the failed commit is known (a write to an immutable gq.db-wal fails this way): its text
    // ("SQL error or missing database") would mislead, so say what it means
    if (m != null && m.contains("no transaction is active")) return DROPPED;
    return m == null || m.isBlank() ? innermost.getClass().getSimpleName() : firstLine(m);
  }

  /** The cause when SQLite's own reason is not known and only the commit after it failed. */
  static final String DROPPED = "SQLite could not write the journal's files (gq.db-wal or gq.db read-only or immutable,"
      + " or a disk error) and dropped the write";

  private static String firstLine(String m) {
    return m.lines().findFirst().orElse(m).strip();
  }
}

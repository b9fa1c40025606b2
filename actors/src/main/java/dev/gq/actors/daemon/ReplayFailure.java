package dev.gq.actors.daemon;

import dev.gq.persistence.Database;
import java.nio.file.Path;

/**
 * The one line a failed replay of the Scheduler's events gives the user: the database and its
 * damage with the recovery hint when SQLite reports a damaged file, else the first line of the
 * deepest cause and where the details are.
 */
final class ReplayFailure {
  private ReplayFailure() {}

  static String text(Path database, Throwable failure) {
    if (failure instanceof LostHistory.Refused r) return r.getMessage();
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String why = String.valueOf(root.getMessage()).lines().findFirst().orElse("unknown error");
    if (why.contains("SQLITE_CORRUPT") || why.contains("SQLITE_NOTADB")) return Database.refusalText(database, why);
    return "the scheduler could not replay its events from " + database + " (" + why + "); the daemon log has the details";
  }
}

package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The words a failed journal write is told in. */
class JournalWritesTest {
  @Test
  void sqlitesOwnReasonIsNamedRatherThanTheFailedCommitAfterIt() {
    SQLException commit = new SQLException("[SQLITE_ERROR] SQL error or missing database (cannot commit - no transaction is active)");
    commit.addSuppressed(new SQLException("[SQLITE_FULL] Insertion failed because database is full (database or disk is full)"));
    RuntimeException outer = new RuntimeException("Failed to write", commit);
    assertEquals("[SQLITE_FULL] Insertion failed because database is full (database or disk is full)", JournalWrites.cause(outer));
    assertEquals("disk I/O error", JournalWrites.cause(new RuntimeException("x", new SQLException("disk I/O error\nmore"))));
  }

  @Test
  void aFailedCommitAloneIsToldInWordsNotAsTheMisleadingSqlError() {
    // what an immutable gq.db-wal (chattr +i) leaves: the commit's error and nothing under it
    SQLException commit = new SQLException("[SQLITE_ERROR] SQL error or missing database (cannot commit - no transaction is active)");
    String cause = JournalWrites.cause(new RuntimeException("Failed to write", commit));
    assertEquals(JournalWrites.DROPPED, cause);
    org.junit.jupiter.api.Assertions.assertFalse(cause.contains("missing database"), cause);
  }

  @Test
  void theRefusalSaysWhereWhyAndWhatToDo() {
    assertEquals("cannot write the journal (/d/gq.db): the disk holding /d is full (0 KiB free); nothing was changed:"
        + " free some space there and try again", JournalWrites.refusal(Path.of("/d/gq.db"), "the disk holding /d is full (0 KiB free)", "x"));
    assertEquals("cannot write the journal (/d/gq.db): attempt to write a readonly database; nothing was changed: try again;"
        + " the daemon log has the details", JournalWrites.refusal(Path.of("/d/gq.db"), null, "attempt to write a readonly database"));
  }
}

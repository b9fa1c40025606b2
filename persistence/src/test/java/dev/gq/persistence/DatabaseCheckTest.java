package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up checks only what start-up reads; the full check finds damage anywhere. */
class DatabaseCheckTest {
  @TempDir Path dir;

  @Test
  void aWholeDatabasePassesBothChecks() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    Database.prepare(db);
    assertNull(Database.fullCheck(db));
  }

  @Test
  void aFileThatIsNoDatabaseIsRefusedAtStartUp() throws Exception {
    Path db = dir.resolve("gq.db");
    Files.writeString(db, "this is not a database at all, just some bytes....".repeat(100));
    DatabaseRefused e = assertThrows(DatabaseRefused.class, () -> Database.prepare(db));
    assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    assertNotNull(Database.fullCheck(db));
  }

  @Test
  void damageDeepInTheJournalIsFoundByTheFullCheck() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=DELETE");
      for (int i = 1; i <= 400; i++)
        st.execute("INSERT INTO event_journal (persistence_id, sequence_number, writer, write_timestamp,"
            + " adapter_manifest, event_payload, event_ser_id, event_ser_manifest) VALUES ('scheduler', " + i
            + ", 'w', 0, '', randomblob(300), 1, 'm')");
      // a snapshot at the last event and the history up to date: start-up replays none of them
      st.execute("INSERT INTO snapshot (persistence_id, sequence_number, created, snapshot_ser_id, snapshot_ser_manifest,"
          + " snapshot_payload) VALUES ('scheduler', 400, 0, 1, 'm', x'00')");
      st.execute("UPDATE read_offset SET seq = 400");
    }
    long size = Files.size(db);
    try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
      // a page in the middle of the journal's rows: not one start-up reads
      long page = size / 4096 / 2;
      f.seek(page * 4096);
      f.write("garbage garbage garbage garbage garbage ".repeat(100).getBytes(StandardCharsets.US_ASCII));
    }
    Database.prepare(db);
    assertNotNull(Database.fullCheck(db));
  }

  @Test
  void damageInTheEventsStartUpReplaysRefusesTheFileInOneLineWithWhatToDo() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=DELETE");
      for (int i = 1; i <= 400; i++)
        st.execute("INSERT INTO event_journal (persistence_id, sequence_number, writer, write_timestamp,"
            + " adapter_manifest, event_payload, event_ser_id, event_ser_manifest) VALUES ('scheduler', " + i
            + ", 'w', 0, '', randomblob(300), 1, 'm')");
    }
    // No snapshot and the history at 0: start-up replays every event, so damage anywhere among them counts.
    long size = Files.size(db);
    try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
      f.seek((size / 4096 / 2) * 4096);
      f.write("garbage garbage garbage garbage garbage ".repeat(100).getBytes(StandardCharsets.US_ASCII));
    }
    DatabaseRefused e = assertThrows(DatabaseRefused.class, () -> Database.prepare(db));
    String m = e.getMessage();
    assertTrue(m.startsWith("the database " + db + " is damaged or not a gq database ("), m);
    assertTrue(m.contains("malformed"), m);
    assertTrue(m.contains("the daemon will not start over it") && m.contains("mv " + db + " " + db + ".damaged")
        && m.contains("mv " + dir.resolve("logs") + " ") && m.contains("restore a backup"), m);
    assertEquals(-1, m.indexOf('\n'), "one line");
  }

  @Test
  void damageFoundWhileRunningIsWordedForARunningDaemon() {
    String m = Database.damagedText(dir.resolve("gq.db"), "row 12 missing from index\nmore");
    assertTrue(m.startsWith("the database " + dir.resolve("gq.db") + " is damaged (row 12 missing from index)"), m);
    assertTrue(m.contains("keeps running for now: stop it ('gq daemon stop'), then copy it aside"), m);
    assertFalse(m.contains("will not start"), m);
  }

  @Test
  void aCleanCheckpointEmptiesTheWriteAheadLog() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement()) {
      st.execute("INSERT INTO gq_meta (key, value) VALUES ('probe', 'x')");
      assertTrue(Files.size(dir.resolve("gq.db-wal")) > 0, "the write sits in the log while a connection is open");
      assertNull(Database.checkpoint(db));
      assertEquals(0, Files.size(dir.resolve("gq.db-wal")));
    }
    Files.deleteIfExists(dir.resolve("gq.db-wal"));
    Files.deleteIfExists(dir.resolve("gq.db-shm"));
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT value FROM gq_meta WHERE key = 'probe'")) {
      assertTrue(rs.next(), "the write is in the file itself");
    }
  }

  /** The history's writer does not flush each commit (it is rebuilt from the journal); the journal and every other connection do. */
  @Test
  void onlyTheHistorysWriterLeavesItsCommitsToTheNextFlush() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    try (Connection history = DriverManager.getConnection(Database.historyUrl(db));
        Connection other = DriverManager.getConnection(Database.url(db))) {
      assertEquals(1, pragma(history, "synchronous"), "NORMAL");
      assertEquals(2, pragma(other, "synchronous"), "FULL");
      assertEquals("wal", pragmaText(history, "journal_mode"));
      assertEquals(5000, pragma(history, "busy_timeout"));
    }
  }

  private static int pragma(Connection c, String name) throws Exception {
    try (Statement st = c.createStatement(); var rs = st.executeQuery("PRAGMA " + name)) {
      return rs.getInt(1);
    }
  }

  private static String pragmaText(Connection c, String name) throws Exception {
    try (Statement st = c.createStatement(); var rs = st.executeQuery("PRAGMA " + name)) {
      return rs.getString(1);
    }
  }
}

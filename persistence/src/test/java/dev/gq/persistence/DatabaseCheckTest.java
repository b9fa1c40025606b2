package dev.gq.persistence;

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
}

package dev.gq.persistence;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.zip.GZIPOutputStream;

/** Writes journal rows shaped like pekko-persistence-jdbc's into a prepared gq database, for tests. */
final class JournalRows implements AutoCloseable {
  static final String MANIFEST = "dev.gq.core.ledger.LedgerEvent$";
  private final Connection db;
  private long seq;

  JournalRows(Path file) throws Exception {
    Database.prepare(file);
    db = DriverManager.getConnection(Database.url(file));
  }

  /** Appends event {@code type} with JSON {@code payload}, stored at {@code millis}; returns its sequence number. */
  long add(String type, long millis, String payload) throws SQLException {
    return add("scheduler", type, millis, payload.getBytes(StandardCharsets.UTF_8));
  }

  long addGzipped(String type, long millis, String payload) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(payload.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return add("scheduler", type, millis, bytes.toByteArray());
  }

  long add(String persistenceId, String type, long millis, byte[] payload) throws SQLException {
    long n = persistenceId.equals("scheduler") ? ++seq : 1;
    try (PreparedStatement ps = db.prepareStatement("INSERT INTO event_journal (deleted, persistence_id, sequence_number,"
        + " writer, write_timestamp, adapter_manifest, event_payload, event_ser_id, event_ser_manifest)"
        + " VALUES (0, ?, ?, 'writer-1', ?, '', ?, 31, ?)")) {
      ps.setString(1, persistenceId);
      ps.setLong(2, n);
      ps.setLong(3, millis);
      ps.setBytes(4, payload);
      ps.setString(5, MANIFEST + type);
      ps.executeUpdate();
    }
    return n;
  }

  @Override
  public void close() throws SQLException {
    db.close();
  }
}

package dev.gq.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.sqlite.SQLiteConfig;

/**
 * Reads the Scheduler's events straight from the journal table, oldest first, on its own
 * read-only connection to the database file, so it never waits on the actors nor writes. Payloads
 * are decoded as JSON trees (gzip-compressed ones too), not into event classes, so any stored
 * event can be shown. Filters: a job, and a store time. One connection, used under this
 * object's lock; each query sees the newest committed events.
 */
public final class JournalReader implements AutoCloseable {
  /** The persistence id of the Scheduler, the one writer of events. */
  public static final String PERSISTENCE_ID = "scheduler";
  private static final ObjectMapper JSON = new ObjectMapper();
  // A compressed payload is not text, so the job filter lets it through and decode() checks it.
  private static final String JOB_FILTER = " AND (NOT json_valid(CAST(event_payload AS TEXT))"
      + " OR json_extract(CAST(event_payload AS TEXT), '$.jobId') = ?)";

  // A job's environment is never shown and is most of a submit's size: SQLite drops it before the
  // payload is decoded (a compressed payload is passed whole; decode() leaves the environment out of it too).
  private static final String PAYLOAD = "CASE WHEN json_valid(CAST(event_payload AS TEXT))"
      + " THEN CAST(json_remove(CAST(event_payload AS TEXT), '$.spec.env') AS BLOB) ELSE event_payload END";

  private final Connection db;
  /** The two questions asked at every write and tick, prepared once (under this reader's lock). */
  private PreparedStatement highest;
  private PreparedStatement storedAfter;

  private JournalReader(Connection db) {
    this.db = db;
  }

  /** Opens the database file read-only; the daemon keeps writing through its own connection. */
  public static JournalReader open(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(5000);
    return new JournalReader(config.createConnection("jdbc:sqlite:" + file));
  }

  /**
   * Up to {@code limit} events with a sequence number above {@code afterSeq}, oldest first: only
   * job {@code jobId}'s when not null, only those stored at or after {@code since} when not null.
   */
  public synchronized List<JournalEntry> read(long afterSeq, Long jobId, Instant since, int limit) throws SQLException {
    List<JournalEntry> out = new ArrayList<>();
    long cursor = afterSeq;
    while (out.size() < limit) {
      int want = limit - out.size();
      int rows = 0;
      try (PreparedStatement ps = query(" ORDER BY sequence_number LIMIT ?", cursor, jobId, since, want);
          ResultSet rs = ps.executeQuery()) {
        for (; rs.next(); rows++) {
          JournalEntry e = entry(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getBytes(4));
          cursor = e.seq();
          if (jobId == null || jobId.equals(e.jobId())) out.add(e);
        }
      }
      if (rows < want) break;
    }
    return out;
  }

  /** The highest sequence number stored for the Scheduler; 0 when it has stored nothing. */
  public synchronized long highestSeq() throws SQLException {
    // asked after every write and at every tick of the notifier: prepared once
    if (highest == null) highest = db.prepareStatement("SELECT max(sequence_number) FROM event_journal WHERE persistence_id = ?");
    highest.setString(1, PERSISTENCE_ID);
    try (ResultSet rs = highest.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** Up to {@code limit} stored events with a sequence number above {@code afterSeq}, oldest first, undecoded. */
  public synchronized List<StoredEvent> stored(long afterSeq, int limit) throws SQLException {
    if (storedAfter == null) storedAfter = db.prepareStatement("SELECT sequence_number, event_ser_id, event_ser_manifest,"
        + " event_payload FROM event_journal WHERE persistence_id = ? AND NOT deleted AND sequence_number > ?"
        + " ORDER BY sequence_number LIMIT ?");
    PreparedStatement ps = storedAfter;
    {
      ps.setString(1, PERSISTENCE_ID);
      ps.setLong(2, afterSeq);
      ps.setInt(3, limit);
      List<StoredEvent> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) out.add(new StoredEvent(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getBytes(4)));
      }
      return out;
    }
  }

  /**
   * The sequence number to read after so that only the last {@code count} matching events follow
   * (0 when there are no more than that). A compressed payload counts here whatever its job, so
   * with a job filter a few fewer may follow.
   */
  public synchronized long tailStart(Long jobId, Instant since, int count) throws SQLException {
    try (PreparedStatement ps = query(" ORDER BY sequence_number DESC LIMIT 1 OFFSET ?", 0, jobId, since, count);
        ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private PreparedStatement query(String tail, long afterSeq, Long jobId, Instant since, int last) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT sequence_number, write_timestamp, event_ser_manifest, " + PAYLOAD
        + " FROM event_journal WHERE persistence_id = ? AND NOT deleted AND sequence_number > ?");
    if (since != null) sql.append(" AND write_timestamp >= ?");
    if (jobId != null) sql.append(JOB_FILTER);
    PreparedStatement ps = db.prepareStatement(sql.append(tail).toString());
    int i = 1;
    ps.setString(i++, PERSISTENCE_ID);
    ps.setLong(i++, afterSeq);
    if (since != null) ps.setLong(i++, since.toEpochMilli());
    if (jobId != null) ps.setLong(i++, jobId);
    ps.setInt(i, last);
    return ps;
  }

  static JournalEntry entry(long seq, long storedMillis, String manifest, byte[] payload) {
    String type = type(manifest);
    JsonNode tree;
    try {
      tree = JSON.readTree(unzip(payload));
    } catch (IOException e) {
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      return new JournalEntry(seq, Instant.ofEpochMilli(storedMillis), type, null, Map.of("unreadable", why));
    }
    return new JournalEntry(seq, time(storedMillis, tree), type, jobId(tree), EventFields.of(tree));
  }

  /** The job the event is about; null for an event about the queue or a group. */
  private static Long jobId(JsonNode tree) {
    JsonNode id = tree.path("jobId");
    return id.isIntegralNumber() ? Long.valueOf(id.asLong()) : null;
  }

  /** When the event was stored; the event's own time if the row has none. */
  private static Instant time(long storedMillis, JsonNode tree) {
    if (storedMillis > 0 || !tree.path("at").isTextual()) return Instant.ofEpochMilli(storedMillis);
    try {
      return Instant.parse(tree.path("at").asText());
    } catch (DateTimeParseException e) {
      return Instant.ofEpochMilli(storedMillis);
    }
  }

  /** {@code dev.gq.core.ledger.LedgerEvent$JobReserved} (maybe with a {@code #version}) → {@code JobReserved}. */
  static String type(String manifest) {
    if (manifest == null || manifest.isEmpty()) return "?";
    String m = manifest.contains("#") ? manifest.substring(0, manifest.indexOf('#')) : manifest;
    return m.substring(Math.max(m.lastIndexOf('$'), m.lastIndexOf('.')) + 1);
  }

  /** Pekko's Jackson serializer gzips large payloads; the gzip magic tells them apart. */
  private static byte[] unzip(byte[] payload) throws IOException {
    if (payload == null) return new byte[0];
    if (payload.length < 2 || (payload[0] & 0xff) != 0x1f || (payload[1] & 0xff) != 0x8b) return payload;
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(payload))) {
      return in.readAllBytes();
    }
  }

  @Override
  public synchronized void close() throws SQLException {
    db.close();
  }
}

package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.JobTransitions;
import dev.gq.core.ledger.LedgerEvent;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The history of every job, in the `jobs` table of the same SQLite file, derived from the journal:
 * each event is applied with {@link JobTransitions} (the Ledger's own rule) and the offset of the
 * last applied sequence number is stored in the same transaction, so a crash never leaves it half
 * applied and catching up is idempotent. One connection, used under this object's lock.
 */
public final class ReadSide implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .registerModule(new Jdk8Module())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Connection db;

  private ReadSide(Connection db) {
    this.db = db;
  }

  public static ReadSide open(Path file) throws SQLException {
    return new ReadSide(DriverManager.getConnection(Database.url(file)));
  }

  /** The sequence number of the last event applied. */
  public synchronized long offset() throws SQLException {
    try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT seq FROM read_offset WHERE id = 1")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** Applies events numbered {@code firstSeq, firstSeq+1, ...}; those at or below the offset are skipped. */
  public synchronized void apply(long firstSeq, List<LedgerEvent> events) throws SQLException {
    long offset = offset();
    db.setAutoCommit(false);
    try {
      long seq = firstSeq;
      for (LedgerEvent e : events) {
        if (seq > offset && e instanceof LedgerEvent.JobEvent je)
          upsert(JobTransitions.next(je instanceof LedgerEvent.JobSubmitted ? null : load(je.jobId()), je));
        seq++;
      }
      try (PreparedStatement ps = db.prepareStatement("UPDATE read_offset SET seq = ? WHERE id = 1")) {
        ps.setLong(1, Math.max(offset, seq - 1));
        ps.executeUpdate();
      }
      db.commit();
    } catch (SQLException | RuntimeException e) {
      db.rollback();
      throw e;
    } finally {
      db.setAutoCommit(true);
    }
  }

  private Job load(long id) throws SQLException {
    return job(id).orElseThrow(() -> new SQLException("read side has no job " + id + " to update"));
  }

  private void upsert(Job j) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(
        "INSERT OR REPLACE INTO jobs (id, state, group_name, job_key, end_time, doc) VALUES (?,?,?,?,?,?)")) {
      ps.setLong(1, j.id());
      ps.setString(2, j.state().name());
      ps.setString(3, j.spec().group());
      ps.setString(4, j.spec().key());
      ps.setString(5, j.endTime() == null ? null : j.endTime().toString());
      ps.setString(6, write(j));
      ps.executeUpdate();
    }
  }

  public synchronized Optional<Job> job(long id) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement("SELECT doc FROM jobs WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(read(rs.getString(1))) : Optional.empty();
      }
    }
  }

  /** Jobs matching {@code q}, newest first. */
  public synchronized List<Job> jobs(JobQuery q) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT doc FROM jobs WHERE 1=1");
    List<Object> args = new ArrayList<>();
    if (!q.ranges().isEmpty()) {
      List<String> ors = new ArrayList<>();
      for (long[] r : q.ranges()) {
        ors.add("(id BETWEEN ? AND ?)");
        args.add(r[0]);
        args.add(r[1]);
      }
      sql.append(" AND (").append(String.join(" OR ", ors)).append(')');
    }
    if (!q.states().isEmpty()) {
      sql.append(" AND state IN (").append(String.join(",", q.states().stream().map(s -> "?").toList())).append(')');
      q.states().forEach(s -> args.add(s.name()));
    }
    if (q.group() != null) {
      sql.append(" AND group_name = ?");
      args.add(q.group());
    }
    sql.append(" ORDER BY id DESC");
    if (q.limit() > 0) sql.append(" LIMIT ").append(q.limit());
    return query(sql.toString(), args);
  }

  private List<Job> query(String sql, List<Object> args) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) ps.setObject(i + 1, args.get(i));
      List<Job> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) out.add(read(rs.getString(1)));
      }
      return out;
    }
  }

  private static String write(Job j) {
    try {
      return JSON.writeValueAsString(j);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode job " + j.id(), e);
    }
  }

  private static Job read(String doc) throws SQLException {
    try {
      return JSON.readValue(doc, Job.class);
    } catch (JsonProcessingException e) {
      throw new SQLException("unreadable job record in the read side: " + e.getOriginalMessage());
    }
  }

  @Override
  public synchronized void close() throws SQLException {
    db.close();
  }
}

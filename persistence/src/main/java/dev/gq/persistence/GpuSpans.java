package dev.gq.persistence;

import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * The {@code gpu_spans} table: what each GPU was doing over time, for usage reports. A span is
 * keyed by its GPU and start, so writing it again moves its end forward. Every write also drops
 * spans that ended more than {@link #KEEP} ago and the oldest beyond {@link #MAX_ROWS}, so the
 * table stays bounded whatever the daemon's uptime. One connection, opened per use.
 */
public final class GpuSpans {
  /** How long spans are kept after they end. */
  public static final Duration KEEP = Duration.ofDays(400);
  /** The most spans kept; the oldest go first. */
  public static final int MAX_ROWS = 500_000;

  /** The spans a period reads: those that end after its start and begin before its end. */
  private static final String OVERLAP = " WHERE end_ms > ? AND start_ms < ?";

  private GpuSpans() {}

  /** Writes {@code spans} (new, or with a later end) in one transaction, then drops what is past the bounds. */
  public static void write(Path file, List<GpuSpan> spans, Instant now) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file) + "&transaction_mode=IMMEDIATE")) {
      c.setAutoCommit(false);
      try {
        write(c, spans);
        prune(c, now);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  private static void write(Connection c, List<GpuSpan> spans) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO gpu_spans (uuid, gpu_index, gpu_use, start_ms, end_ms)"
        + " VALUES (?,?,?,?,?) ON CONFLICT (uuid, start_ms) DO UPDATE SET end_ms = max(end_ms, excluded.end_ms),"
        + " gpu_use = excluded.gpu_use")) {
      for (GpuSpan s : spans) {
        ps.setString(1, s.uuid());
        ps.setInt(2, s.index());
        ps.setString(3, s.use().name());
        ps.setLong(4, s.start().toEpochMilli());
        ps.setLong(5, s.end().toEpochMilli());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void prune(Connection c, Instant now) throws SQLException {
    try (PreparedStatement old = c.prepareStatement("DELETE FROM gpu_spans WHERE end_ms < ?");
        PreparedStatement many = c.prepareStatement(
            "DELETE FROM gpu_spans WHERE id <= (SELECT max(id) FROM gpu_spans) - " + MAX_ROWS)) {
      old.setLong(1, now.minus(KEEP).toEpochMilli());
      old.executeUpdate();
      many.executeUpdate();
    }
  }

  /** How many spans {@link #read} would hand over for {@code [from, to)}, and the earliest start among them. */
  public static UsageReads.Extent extent(Path file, Instant from, Instant to) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement("SELECT count(*), min(start_ms) FROM gpu_spans" + OVERLAP)) {
      ps.setLong(1, from.toEpochMilli());
      ps.setLong(2, to.toEpochMilli());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long rows = rs.getLong(1);
        long first = rs.getLong(2);
        return new UsageReads.Extent(rows, rs.wasNull() ? null : Instant.ofEpochMilli(first));
      }
    }
  }

  /**
   * Hands each span that overlaps {@code [from, to)} to {@code each} as it is read, in order of start,
   * holding none: the table may keep {@link #MAX_ROWS} of them.
   */
  public static void read(Path file, Instant from, Instant to, Consumer<GpuSpan> each) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement("SELECT uuid, gpu_index, gpu_use, start_ms, end_ms FROM gpu_spans" + OVERLAP
            + " ORDER BY start_ms")) {
      ps.setLong(1, from.toEpochMilli());
      ps.setLong(2, to.toEpochMilli());
      ps.setFetchSize(1000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          GpuUse use;
          try {
            use = GpuUse.valueOf(rs.getString(3));
          } catch (IllegalArgumentException e) {
            use = GpuUse.UNKNOWN;   // written by a newer gq
          }
          each.accept(new GpuSpan(rs.getString(1), rs.getInt(2), use, Instant.ofEpochMilli(rs.getLong(4)),
              Instant.ofEpochMilli(rs.getLong(5))));
        }
      }
    }
  }
}

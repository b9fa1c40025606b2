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
import java.util.ArrayList;
import java.util.List;

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

  /** The spans that overlap {@code [from, to)}, oldest first. */
  public static List<GpuSpan> read(Path file, Instant from, Instant to) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement("SELECT uuid, gpu_index, gpu_use, start_ms, end_ms FROM gpu_spans"
            + " WHERE end_ms > ? AND start_ms < ? ORDER BY start_ms")) {
      ps.setLong(1, from.toEpochMilli());
      ps.setLong(2, to.toEpochMilli());
      List<GpuSpan> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          GpuUse use;
          try {
            use = GpuUse.valueOf(rs.getString(3));
          } catch (IllegalArgumentException e) {
            use = GpuUse.UNKNOWN;   // written by a newer gq
          }
          out.add(new GpuSpan(rs.getString(1), rs.getInt(2), use, Instant.ofEpochMilli(rs.getLong(4)),
              Instant.ofEpochMilli(rs.getLong(5))));
        }
      }
      return out;
    }
  }
}

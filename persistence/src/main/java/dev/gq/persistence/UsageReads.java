package dev.gq.persistence;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobState;
import dev.gq.core.report.JobSpan;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads from the history what a usage report over {@code [from, to)} needs of each job that may
 * touch it (ended at or after {@code from}, or not ended; submitted before {@code to}): only the
 * columns the history keeps for it (times in epoch milliseconds and the GPUs as text, written with
 * every row; see schema-3.sql; a shared job's share, schema-4.sql), never a job's document, on a connection of its own so that a long
 * read never holds up the history's writer. The jobs are handed over one at a time as they are read, never as a list.
 */
public final class UsageReads {
  /** Between a GPU list's entries: the ASCII unit separator, which no UUID holds. */
  private static final char SEPARATOR = '\u001f';
  private static final String COLUMNS = "SELECT id, group_name, state, submit_ms, start_ms, end_ms, gpu_list, share_mib,"
      + " share_per_gpu FROM jobs";
  /** The jobs a period reads: those that ended at or after its start, and those not ended, submitted before its end. */
  private static final String ENDED = " WHERE end_ms >= ? AND submit_ms < ?";
  private static final String LIVE = " WHERE end_ms IS NULL AND submit_ms < ?";

  private UsageReads() {}

  /** How many rows a read hands over, and the earliest time among them (null when there are none). */
  public record Extent(long rows, Instant first) {}

  /** How many jobs {@link #jobs} would read over {@code [from, to)}, and the earliest submission among them. */
  public static Extent extent(Path file, Instant from, Instant to) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement("SELECT count(*), min(submit_ms) FROM (SELECT submit_ms FROM jobs" + ENDED
            + " UNION ALL SELECT submit_ms FROM jobs" + LIVE + ")")) {
      bind(ps, from, to);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long rows = rs.getLong(1);
        return new Extent(rows, instant(rs, 2));
      }
    }
  }

  /**
   * Hands each job that may touch {@code [from, to)} to {@code each} as it is read, holding none: a
   * report over a long history folds them ({@code Usage}) instead of listing them. A row that cannot
   * be read is skipped.
   */
  public static void jobs(Path file, Instant from, Instant to, Consumer<JobSpan> each) throws SQLException {
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement(COLUMNS + ENDED + " UNION ALL " + COLUMNS + LIVE)) {
      bind(ps, from, to);
      ps.setFetchSize(1000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          JobSpan j = span(rs);
          if (j != null) each.accept(j);
        }
      }
    }
  }

  private static void bind(PreparedStatement ps, Instant from, Instant to) throws SQLException {
    long toMs = to.toEpochMilli();
    ps.setLong(1, from.toEpochMilli());
    ps.setLong(2, toMs);
    ps.setLong(3, toMs);
  }

  /** One row as a span; null when it cannot be read (a damaged row never hides the others). */
  private static JobSpan span(ResultSet rs) throws SQLException {
    try {
      return new JobSpan(rs.getLong(1), rs.getString(2), JobState.valueOf(rs.getString(3)), instant(rs, 4),
          instant(rs, 5), instant(rs, 6), gpus(rs.getString(7)), share(rs));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** What a shared job declared of each card; null for a job that had its cards to itself. */
  private static JobSpan.Share share(ResultSet rs) throws SQLException {
    long mib = rs.getLong(8);
    return rs.wasNull() ? null : new JobSpan.Share(mib, rs.getInt(9));
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    long ms = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(ms);
  }

  /** The column's text for {@code gpus}: "index=uuid" entries; null for none. */
  static String gpuList(List<GpuSlot> gpus) {
    if (gpus.isEmpty()) return null;
    StringBuilder sb = new StringBuilder();
    for (GpuSlot g : gpus) {
      if (!sb.isEmpty()) sb.append(SEPARATOR);
      sb.append(g.index()).append('=').append(g.uuid());
    }
    return sb.toString();
  }

  private static List<JobSpan.GpuRef> gpus(String s) {
    if (s == null || s.isEmpty()) return List.of();
    List<JobSpan.GpuRef> out = new ArrayList<>();
    for (String g : s.split(String.valueOf(SEPARATOR))) {
      int eq = g.indexOf('=');
      out.add(new JobSpan.GpuRef(g.substring(eq + 1), Integer.parseInt(g.substring(0, eq))));
    }
    return out;
  }
}

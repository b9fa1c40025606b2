package dev.gq.persistence;

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

/**
 * Reads from the history what a usage report over {@code [from, to)} needs of each job that may
 * touch it (ended at or after {@code from}, or not ended; submitted before {@code to}): only the
 * fields it uses, extracted by SQLite from the documents, never the whole job, on a connection of
 * its own so that a long read never holds up the history's writer.
 */
public final class UsageReads {
  private static final String COLUMNS = "SELECT id, group_name, state, json_extract(doc, '$.submitTime'),"
      + " json_extract(doc, '$.startTime'), json_extract(doc, '$.endTime'),"
      + " (SELECT group_concat(json_extract(g.value, '$.index') || '=' || json_extract(g.value, '$.uuid'), char(31))"
      + " FROM json_each(doc, '$.gpus') g) FROM jobs";

  private UsageReads() {}

  public static List<JobSpan> jobs(Path file, Instant from, Instant to) throws SQLException {
    // end_time is Instant text: a second's slack makes the text comparison safe across fraction digits
    String since = from.minusSeconds(1).toString();
    List<JobSpan> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(Database.url(file));
        PreparedStatement ps = c.prepareStatement(COLUMNS + " WHERE end_time >= ? UNION ALL " + COLUMNS
            + " WHERE end_time IS NULL")) {
      ps.setString(1, since);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          JobSpan j = span(rs);
          if (j != null && j.submit() != null && j.submit().isBefore(to)) out.add(j);
        }
      }
    }
    return out;
  }

  /** One row as a span; null when its record cannot be read (a damaged row never hides the others). */
  private static JobSpan span(ResultSet rs) throws SQLException {
    try {
      return new JobSpan(rs.getLong(1), rs.getString(2), JobState.valueOf(rs.getString(3)), instant(rs.getString(4)),
          instant(rs.getString(5)), instant(rs.getString(6)), gpus(rs.getString(7)));
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static Instant instant(String s) {
    return s == null ? null : Instant.parse(s);
  }

  private static List<JobSpan.GpuRef> gpus(String s) {
    if (s == null || s.isEmpty()) return List.of();
    List<JobSpan.GpuRef> out = new ArrayList<>();
    for (String g : s.split("\u001f")) {
      int eq = g.indexOf('=');
      out.add(new JobSpan.GpuRef(g.substring(eq + 1), Integer.parseInt(g.substring(0, eq))));
    }
    return out;
  }
}

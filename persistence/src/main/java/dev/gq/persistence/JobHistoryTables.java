package dev.gq.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Puts back a history that was dropped or emptied, so that it is rebuilt from the journal: its
 * tables are created again when missing, from {@code history.sql} (as the schema scripts leave them), and its offset goes
 * back to 0 when the tables were missing, the offset row is gone, or no job row is left while the
 * offset says events were applied and no job was ever deleted. The journal is never touched.
 */
final class JobHistoryTables {
  private JobHistoryTables() {}

  static void restore(Connection db) throws SQLException {
    try (Statement st = db.createStatement()) {
      boolean whole = exists(st, "jobs") && exists(st, "read_offset") && exists(st, "deleted_jobs");
      if (whole && !emptied(st)) return;
      for (String sql : Database.statements("history.sql")) st.execute(sql);
      st.execute("INSERT OR REPLACE INTO read_offset (id, seq) VALUES (1, 0)");
    }
  }

  /** No offset row, or an offset past 0 with neither a job row nor a deleted job. */
  private static boolean emptied(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT (SELECT seq FROM read_offset WHERE id = 1),"
        + " EXISTS (SELECT 1 FROM jobs), EXISTS (SELECT 1 FROM deleted_jobs)")) {
      rs.next();
      long seq = rs.getLong(1);
      if (rs.wasNull()) return true;
      return seq > 0 && rs.getInt(2) == 0 && rs.getInt(3) == 0;
    }
  }

  private static boolean exists(Statement st, String table) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + table + "'")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }
}

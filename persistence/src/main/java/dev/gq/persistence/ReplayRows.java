package dev.gq.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The journal rows every start-up reads: the Scheduler's events after its newest snapshot (at most
 * a snapshot interval) and those the history has not applied yet. {@link #read} reads them whole,
 * the way replay will, so that damage among them refuses the file before any actor starts, with one
 * line, instead of failing the replay. Costs the same at any history size.
 */
final class ReplayRows {
  private ReplayRows() {}

  /** Reads every row start-up will replay; throws the SQLite error damage gives. */
  static void read(Connection c) throws SQLException {
    long from;
    try (Statement st = c.createStatement()) {
      if (!tableExists(st, "event_journal")) return;
      from = Math.min(snapshotSeq(st), readOffset(st));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT sequence_number, event_ser_manifest, event_payload FROM event_journal"
        + " WHERE persistence_id = 'scheduler' AND sequence_number > ? ORDER BY sequence_number")) {
      ps.setLong(1, from);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rs.getString(2);
          rs.getBytes(3);
        }
      }
    }
  }

  private static long snapshotSeq(Statement st) throws SQLException {
    if (!tableExists(st, "snapshot")) return 0;
    try (ResultSet rs = st.executeQuery("SELECT coalesce(max(sequence_number), 0) FROM snapshot WHERE persistence_id = 'scheduler'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private static long readOffset(Statement st) throws SQLException {
    if (!tableExists(st, "read_offset")) return 0;
    try (ResultSet rs = st.executeQuery("SELECT seq FROM read_offset WHERE id = 1")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private static boolean tableExists(Statement st, String name) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + name + "'")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }
}

package dev.gq.persistence;

import dev.gq.core.job.Attempts;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LineageFact;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Looks up retry lineages in the {@code jobs} table: for each job asked about, its lineage root
 * (the first attempt), the newest attempt of that lineage ({@link Attempts#newest}: its highest id)
 * and that attempt's state. One indexed statement per chunk of ids; no job documents are read.
 */
final class Lineages {
  private Lineages() {}

  static Map<Long, LineageFact> facts(Connection db, List<Long> ids) throws SQLException {
    Map<Long, LineageFact> out = new HashMap<>();
    for (int i = 0; i < ids.size(); i += HistoryDeletes.CHUNK) {
      List<Long> chunk = ids.subList(i, Math.min(ids.size(), i + HistoryDeletes.CHUNK));
      String sql = "SELECT x.id, x.root, x.newest, n.state FROM (SELECT j.id AS id, coalesce(j.retry_of, j.id) AS root,"
          + " max(j.id, coalesce((SELECT max(k.id) FROM jobs k WHERE k.retry_of = coalesce(j.retry_of, j.id)), 0)) AS newest"
          + " FROM jobs j WHERE j.id IN (" + String.join(",", Collections.nCopies(chunk.size(), "?")) + ")) x"
          + " LEFT JOIN jobs n ON n.id = x.newest";
      try (PreparedStatement ps = db.prepareStatement(sql)) {
        for (int k = 0; k < chunk.size(); k++) ps.setLong(k + 1, chunk.get(k));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            String state = rs.getString(4);
            out.put(rs.getLong(1), new LineageFact(rs.getLong(1), rs.getLong(2), rs.getLong(3),
                state == null ? null : JobState.valueOf(state)));
          }
        }
      }
    }
    return out;
  }
}

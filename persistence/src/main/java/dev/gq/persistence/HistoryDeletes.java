package dev.gq.persistence;

import dev.gq.core.job.JobState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Applies a {@code JobsRemoved} to the history: the rows of the ended jobs it names go and
 * their ids are remembered in {@code deleted_jobs}, so that a later event for one of them is
 * skipped, and a rebuild from the journal skips the jobs deleted before deletions were journaled.
 * Only rows in an ended state are ever deleted. Works in chunks so that a long id list never
 * needs a huge statement.
 */
final class HistoryDeletes {
  static final int CHUNK = 500;
  private static final String ENDED = ended();

  private HistoryDeletes() {}

  /** Id, state and log path of those of {@code ids} that exist, by ascending id. */
  static List<JobRef> refs(Connection db, List<Long> ids) throws SQLException {
    List<JobRef> out = new ArrayList<>();
    for (List<Long> chunk : chunks(ids)) {
      String sql = "SELECT id, state, json_extract(doc, '$.logPath'), end_time FROM jobs WHERE id IN (" + marks(chunk.size()) + ")";
      try (PreparedStatement ps = db.prepareStatement(sql)) {
        bind(ps, chunk);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) out.add(new JobRef(rs.getLong(1), JobState.valueOf(rs.getString(2)), rs.getString(3),
              JobRef.endTime(rs.getString(4))));
        }
      }
    }
    out.sort((a, b) -> Long.compare(a.id(), b.id()));
    return out;
  }

  /** Deletes those of {@code ids} that have ended, within the caller's transaction; returns how many rows went. */
  static int delete(Connection db, List<Long> ids) throws SQLException {
    int n = 0;
    for (List<Long> chunk : chunks(ids)) n += deleteChunk(db, chunk);
    return n;
  }

  private static int deleteChunk(Connection db, List<Long> chunk) throws SQLException {
    String in = " WHERE id IN (" + marks(chunk.size()) + ") AND state IN (" + ENDED + ")";
    try (PreparedStatement mark = db.prepareStatement("INSERT OR IGNORE INTO deleted_jobs (id) SELECT id FROM jobs" + in);
        PreparedStatement del = db.prepareStatement("DELETE FROM jobs" + in)) {
      bind(mark, chunk);
      mark.executeUpdate();
      bind(del, chunk);
      return del.executeUpdate();
    }
  }

  /** The question whether job {@code ?} was deleted from the history. */
  static final String DELETED = "SELECT 1 FROM deleted_jobs WHERE id = ?";

  /** The ended states as an SQL list: 'DONE','FAILED',... (constant text, no user input). */
  private static String ended() {
    List<String> names = new ArrayList<>();
    for (JobState s : JobState.values()) if (s.terminal()) names.add("'" + s.name() + "'");
    return String.join(",", names);
  }

  private static List<List<Long>> chunks(List<Long> ids) {
    if (ids.isEmpty()) return Collections.emptyList();
    List<List<Long>> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += CHUNK) out.add(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
    return out;
  }

  private static String marks(int n) {
    return String.join(",", Collections.nCopies(n, "?"));
  }

  private static void bind(PreparedStatement ps, List<Long> ids) throws SQLException {
    for (int i = 0; i < ids.size(); i++) ps.setLong(i + 1, ids.get(i));
  }
}

package dev.gq.persistence;

import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.HistoryFact;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A job of the history by id, its state, the log path it was given (null when none) and when it ended (null while not). */
public record JobRef(long id, JobState state, String logPath, Instant endTime) {
  /** What a deletion needs to know of it. */
  public HistoryFact fact() {
    return new HistoryFact(id, state, endTime);
  }

  /** The jobs matching {@code q}, oldest first, without reading their documents but for the log path. */
  static List<JobRef> matching(Connection db, JobQuery q) throws SQLException {
    JobSql w = JobSql.of(q);
    String sql = "SELECT j.id, j.state, json_extract(j.doc, '$.logPath'), j.end_time FROM jobs j WHERE " + w.where()
        + " ORDER BY j.id" + (q.limit() > 0 ? " LIMIT " + q.limit() : "");
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      for (int i = 0; i < w.args().size(); i++) ps.setObject(i + 1, w.args().get(i));
      List<JobRef> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next())
          out.add(new JobRef(rs.getLong(1), JobState.valueOf(rs.getString(2)), rs.getString(3), endTime(rs.getString(4))));
      }
      return out;
    }
  }

  static Instant endTime(String text) {
    return text == null ? null : Instant.parse(text);
  }
}

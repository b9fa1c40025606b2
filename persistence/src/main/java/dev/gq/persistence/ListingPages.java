package dev.gq.persistence;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page of the listing ({@code gq ps}): the matching ids read first, the rows decoded before taken
 * from the {@link ListingCache}, only the others read and decoded (without their environments), a
 * chunk of ids at a time. Called under the history's lock, which is also its writes' lock.
 */
final class ListingPages {
  private static final int DECODE_CHUNK = 500;

  private ListingPages() {}

  static JobPage page(Connection db, ListingCache listing, JobQuery q) throws SQLException {
    JobSql w = JobSql.of(q);
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps = db.prepareStatement(JobHistory.select("j.id", w, q))) {
      for (int i = 0; i < w.args().size(); i++) ps.setObject(i + 1, w.args().get(i));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) ids.add(rs.getLong(1));
      }
    }
    Map<Long, Job> found = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (long id : ids) {
      Job j = listing.get(id);
      if (j != null) found.put(id, j);
      else missing.add(id);
    }
    decode(db, listing, missing, found);
    List<Job> jobs = new ArrayList<>(ids.size());
    List<Long> unreadable = new ArrayList<>();
    for (long id : ids) {
      Job j = found.get(id);
      if (j != null) jobs.add(j);
      else unreadable.add(id);
    }
    return new JobPage(jobs, unreadable);
  }

  /** Reads and decodes the listing rows of {@code ids} into {@code into} and the cache; an unreadable row is left out. */
  private static void decode(Connection db, ListingCache listing, List<Long> ids, Map<Long, Job> into) throws SQLException {
    for (int from = 0; from < ids.size(); from += DECODE_CHUNK) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + DECODE_CHUNK));
      String marks = String.join(",", Collections.nCopies(chunk.size(), "?"));
      try (PreparedStatement ps = db.prepareStatement("SELECT j.id, " + JobHistory.WITHOUT_ENV + " FROM jobs j WHERE j.id IN ("
          + marks + ")")) {
        for (int i = 0; i < chunk.size(); i++) ps.setLong(i + 1, chunk.get(i));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Job j = JobDocuments.readOrNull(rs.getString(2));
            if (j == null || j.id() != rs.getLong(1)) continue;
            into.put(j.id(), j);
            listing.put(j);
          }
        }
      }
    }
  }
}

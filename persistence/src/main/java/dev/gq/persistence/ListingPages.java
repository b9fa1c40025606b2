package dev.gq.persistence;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A page of the listing ({@code gq ps}): the matching ids read first, the rows decoded before taken
 * from the {@link ListingCache}, only the others read and decoded (without their environments), a
 * chunk of ids at a time. Called under the history's lock, which is also its writes' lock.
 */
final class ListingPages {
  private static final int DECODE_CHUNK = 500;

  private ListingPages() {}

  static JobPage page(Connection db, ListingCache listing, JobQuery q) throws SQLException {
    return page(db, listing, q, LiveRows.NONE);
  }

  /**
   * As above; a row not in the cache whose job {@code live} holds is made from that job and the
   * command and log path read from the row ({@link LiveRows}), the others decoded.
   */
  static JobPage page(Connection db, ListingCache listing, JobQuery q, LiveRows live) throws SQLException {
    List<Long> ids = new ArrayList<>();
    List<Object> args = new ArrayList<>();
    try (PreparedStatement ps = db.prepareStatement(ids(q, args))) {
      for (int i = 0; i < args.size(); i++) ps.setObject(i + 1, args.get(i));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) ids.add(rs.getLong(1));
      }
    }
    Map<Long, Job> found = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    List<Long> held = new ArrayList<>();
    for (long id : ids) {
      Job j = listing.get(id);
      if (j != null) found.put(id, j);
      else if (live.holds(id)) held.add(id);
      else missing.add(id);
    }
    for (int from = 0; from < held.size(); from += DECODE_CHUNK)
      missing.addAll(live.complete(db, listing, held.subList(from, Math.min(held.size(), from + DECODE_CHUNK)), found));
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

  /**
   * The query of the matching ids, newest first, its arguments added to {@code args}. A page of
   * several states is read state by state, each a range of the (state, id) index, and merged: one
   * range over all of them would sort every matching row below the page for each page, so that
   * reading a long queue page by page would cost its length squared.
   */
  static String ids(JobQuery q, List<Object> args) {
    if (q.limit() <= 0 || q.states().size() < 2) {
      JobSql w = JobSql.of(q);
      args.addAll(w.args());
      return w.select("j.id", q);
    }
    List<String> parts = new ArrayList<>();
    for (JobState s : q.states()) {
      JobQuery one = new JobQuery(q.ranges(), Set.of(s), q.group(), q.limit(), q.latestOnly(), q.belowId(), q.endedBefore());
      JobSql w = JobSql.of(one);
      args.addAll(w.args());
      parts.add("SELECT id FROM (" + w.select("j.id AS id", one) + ")");
    }
    return String.join(" UNION ALL ", parts) + " ORDER BY id DESC LIMIT " + q.limit();
  }

  /** Reads and decodes the listing rows of {@code ids} into {@code into} and the cache; an unreadable row is left out. */
  private static void decode(Connection db, ListingCache listing, List<Long> ids, Map<Long, Job> into) throws SQLException {
    for (int from = 0; from < ids.size(); from += DECODE_CHUNK) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + DECODE_CHUNK));
      String marks = String.join(",", Collections.nCopies(chunk.size(), "?"));
      try (PreparedStatement ps = db.prepareStatement("SELECT j.id, " + JobSql.WITHOUT_ENV + " FROM jobs j WHERE j.id IN ("
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

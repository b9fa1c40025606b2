package dev.gq.persistence;

import dev.gq.core.job.JobState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts each group's jobs in one GROUP BY over the {@code jobs} table: by group, state and
 * whether a later retry replaced the attempt. Reads no job documents, so its cost is an index
 * walk however long the history is. An instance keeps the last count of every group with the event
 * the history had committed when it was made, and counts again only once the history has moved:
 * the screens that show the groups every few seconds ({@code gq top}, {@code gq web}) then cost a
 * long history nothing while it stands still. Used under the history's lock.
 */
final class GroupTally {
  private List<GroupCounts> all;
  private long at = -1;

  /** Every group's counts, sorted by name, with the history at event {@code committed}: counted again only when it moved. */
  List<GroupCounts> all(Connection db, long committed) throws SQLException {
    if (all == null || at != committed) {
      all = List.copyOf(count(db, null, Long.MAX_VALUE));
      at = committed;
    }
    return all;
  }

  /**
   * Every group (or only {@code group} when not null), sorted by name, over the jobs with an id
   * below {@code idBelow} (Long.MAX_VALUE: all), an attempt replaced only by one of those.
   */
  static List<GroupCounts> count(Connection db, String group, long idBelow) throws SQLException {
    String sql = "SELECT j.group_name, j.state, " + JobSql.supersededBelow(idBelow) + " AS replaced, count(*) FROM jobs j"
        + " WHERE j.group_name " + (group == null ? "IS NOT NULL" : "= ?")
        + (idBelow == Long.MAX_VALUE ? "" : " AND j.id < " + idBelow)
        + " GROUP BY j.group_name, j.state, replaced ORDER BY j.group_name";
    Map<String, Map<JobState, Integer>> counts = new LinkedHashMap<>();
    Map<String, Integer> retried = new LinkedHashMap<>();
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      if (group != null) ps.setString(1, group);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) add(counts, retried, rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getInt(4));
      }
    }
    List<GroupCounts> out = new ArrayList<>();
    counts.forEach((g, c) -> out.add(new GroupCounts(g, c, retried.getOrDefault(g, 0))));
    return out;
  }

  private static void add(Map<String, Map<JobState, Integer>> counts, Map<String, Integer> retried,
      String group, String state, boolean replaced, int n) {
    Map<JobState, Integer> c = counts.computeIfAbsent(group, g -> new EnumMap<>(JobState.class));
    if (replaced) retried.merge(group, n, Integer::sum);
    else c.merge(JobState.valueOf(state), n, Integer::sum);
  }
}

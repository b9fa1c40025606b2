package dev.gq.actors.socket;

import dev.gq.cli.ApiException;
import dev.gq.cli.GqApi.GroupSummary;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.persistence.GroupCounts;
import dev.gq.persistence.JobRef;
import dev.gq.persistence.ReadSide;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The requests answered from the job history alone: group counts, and deleting ended jobs with
 * their files ({@code gq rm}, {@code gq clean}). Deletion is all or nothing for {@code rm}, works
 * in pages for {@code clean}, and never touches a job that has not ended. The caller tells the
 * Scheduler, so that the keys the deleted jobs held are free. The journal keeps their events.
 */
final class HistoryRequests {
  static final int PAGE = 500;
  private final ReadSide readSide;
  private final JobFiles files;

  HistoryRequests(ReadSide readSide, JobFiles files) {
    this.readSide = readSide;
    this.files = files;
  }

  /**
   * Counts of every group ({@code only} null) or one, merged with the holds and caps; held or capped
   * groups appear without jobs too.
   */
  List<GroupSummary> groups(String only, Map<String, String> holds, Predicate<String> automatic, Map<String, Integer> caps)
      throws SQLException {
    Map<String, GroupSummary> out = new TreeMap<>();
    for (GroupCounts c : readSide.groups(only)) {
      String reason = holds.get(c.group());
      out.put(c.group(), new GroupSummary(c.group(), c.counts(), c.retried(), reason,
          reason != null && automatic.test(c.group()), caps.get(c.group())));
    }
    java.util.Set<String> more = new java.util.TreeSet<>(holds.keySet());
    more.addAll(caps.keySet());
    for (String g : more) {
      if ((only == null || only.equals(g)) && !out.containsKey(g))
        out.put(g, new GroupSummary(g, Map.of(), 0, holds.get(g), holds.containsKey(g) && automatic.test(g), caps.get(g)));
    }
    return new ArrayList<>(out.values());
  }

  /** Deletes exactly {@code ids}, or nothing with the first reason why not. */
  List<Long> remove(List<Long> ids) throws ApiException, SQLException {
    Map<Long, JobRef> found = new HashMap<>();
    for (JobRef r : readSide.refs(ids)) found.put(r.id(), r);
    for (long id : ids) {
      JobRef r = found.get(id);
      if (r == null) throw new ApiException("job " + id + " does not exist; nothing was deleted");
      if (!r.state().terminal()) throw new ApiException(notEnded(r));
    }
    List<Long> unique = List.copyOf(new java.util.TreeSet<>(ids));
    readSide.deleteFinished(unique);
    for (long id : unique) files.delete(id, found.get(id).logPath());
    return unique;
  }

  private static String notEnded(JobRef r) {
    if (r.state() == JobState.ORPHANED)
      return "job " + r.id() + " is ORPHANED and cannot be deleted: it still holds its GPUs; see 'gq show " + r.id() + "'";
    return "job " + r.id() + " is " + r.state() + " and cannot be deleted; cancel it first";
  }

  /** Deletes every job in {@code states} (any ended state when empty) that ended before {@code before}. */
  int clean(Instant before, Set<JobState> states) throws SQLException {
    Set<JobState> ended = EnumSet.noneOf(JobState.class);
    for (JobState s : JobState.values()) if (s.terminal() && (states.isEmpty() || states.contains(s))) ended.add(s);
    if (ended.isEmpty()) return 0;
    JobQuery page = new JobQuery(List.of(), ended, null, PAGE, false, 0, before);
    int total = 0;
    while (true) {
      List<JobRef> refs = readSide.refs(page);
      if (refs.isEmpty()) return total;
      total += readSide.deleteFinished(refs.stream().map(JobRef::id).toList());
      for (JobRef r : refs) files.delete(r.id(), r.logPath());
      if (refs.size() < PAGE) return total;
    }
  }
}

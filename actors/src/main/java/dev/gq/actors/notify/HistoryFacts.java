package dev.gq.actors.notify;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.notify.GroupFacts;
import dev.gq.core.notify.JobFacts;
import dev.gq.core.notify.NoticeFacts;
import dev.gq.persistence.GroupCounts;
import dev.gq.persistence.JobHistory;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@link NoticeFacts} read from the job history. A group's first start and last end are read only
 * when none of its jobs is live, that is when its message is due. Blocks; a failed read throws
 * IllegalStateException, which makes the notifier try the event again later.
 */
final class HistoryFacts implements NoticeFacts {
  private final JobHistory history;
  private final Duration failFastWithin;

  HistoryFacts(JobHistory history, Duration failFastWithin) {
    this.history = history;
    this.failFastWithin = failFastWithin;
  }

  /** The highest event the history was synced to before the events now decided. */
  private volatile long syncedTo;

  void syncedTo(long seq) {
    this.syncedTo = seq;
  }

  /**
   * Whether {@code seq} is the last event the history holds: none after it was synced, nor applied
   * since (the history may take the next write while the notifier reads the facts of this one).
   */
  @Override
  public boolean latest(long seq) {
    if (seq < syncedTo) return false;
    try {
      return seq >= history.offset();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the history's offset: " + e.getMessage(), e);
    }
  }

  @Override
  public Duration failFastWithin() {
    return failFastWithin;
  }

  @Override
  public Optional<JobFacts> job(long id) {
    try {
      return history.job(id).map(HistoryFacts::facts);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read job " + id + " from the history: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<GroupFacts> group(String group) {
    try {
      List<GroupCounts> counts = history.groups(group);
      if (counts.isEmpty()) return Optional.empty();
      return Optional.of(new GroupFacts(group, counts.get(0).counts(), null, null));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read group " + group + " from the history: " + e.getMessage(), e);
    }
  }

  @Override
  public GroupFacts times(GroupFacts g) {
    try {
      Instant first = null, last = null;
      for (Job j : history.listed(new JobQuery(List.of(), Set.of(), g.group(), 1_000_000))) {
        Instant began = j.startTime() != null ? j.startTime() : j.submitTime();
        if (began != null && (first == null || began.isBefore(first))) first = began;
        if (j.endTime() != null && (last == null || j.endTime().isAfter(last))) last = j.endTime();
      }
      return new GroupFacts(g.group(), g.counts(), first, last);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read group " + g.group() + " from the history: " + e.getMessage(), e);
    }
  }

  @Override
  public long liveJobs() {
    try {
      return history.count(new JobQuery(List.of(), JobState.live(), null, 0));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count live jobs in the history: " + e.getMessage(), e);
    }
  }

  private static JobFacts facts(Job j) {
    String name = j.spec().name();
    if (name == null && !j.spec().argv().isEmpty()) {
      Path p = Path.of(j.spec().argv().get(0)).getFileName();
      name = p == null ? null : p.toString();
    }
    return new JobFacts(j.id(), name, j.spec().group(), j.state(), j.startTime(), j.endTime(), j.exitCode(),
        j.failureReason(), j.spec().env().get("GQ_NOTIFY"));
  }
}

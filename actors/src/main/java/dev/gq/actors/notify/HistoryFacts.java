package dev.gq.actors.notify;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.notify.Ahead;
import dev.gq.core.notify.GroupFacts;
import dev.gq.core.notify.HistoryView;
import dev.gq.core.notify.JobFacts;
import dev.gq.persistence.GroupCounts;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JobRef;
import dev.gq.persistence.JournalEntry;
import dev.gq.persistence.JournalReader;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * The job history as {@link dev.gq.core.notify.FactsAfter} reads it: reads held still under the
 * history's lock, and the events stored after the one decided read back from the journal (the
 * ones that start or end a job, kept while the notifier moves through them). A group's first start
 * and last end are read only when its message is made. Blocks; a failed read throws
 * IllegalStateException, which makes the notifier try the event again later.
 */
final class HistoryFacts implements HistoryView {
  private static final int PAGE = 500;

  /** A stored event that starts or ends a job. */
  private record Mark(long seq, String type, Long jobId) {}

  private final JobHistory history;
  private final JournalReader journal;
  private final WriteEnds writes;
  private final Duration failFastWithin;
  /** The events after {@code from} and up to {@code to} that start or end a job, oldest first. */
  private final ArrayDeque<Mark> marks = new ArrayDeque<>();
  private long from = -1;
  private long to = -1;

  HistoryFacts(JobHistory history, JournalReader journal, WriteEnds writes, Duration failFastWithin) {
    this.history = history;
    this.journal = journal;
    this.writes = writes;
    this.failFastWithin = failFastWithin;
  }

  @Override
  public <T> T still(LongFunction<T> reads) {
    try {
      return history.still(reads::apply);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the job history: " + e.getMessage(), e);
    }
  }

  @Override
  public Ahead ahead(long seq, long upTo) {
    if (seq < from || seq > to) {
      marks.clear(); // outside what was read: read again from seq
      to = seq;
    }
    while (!marks.isEmpty() && marks.peekFirst().seq() <= seq) marks.removeFirst();
    from = seq;
    try {
      while (to < upTo) {
        List<JournalEntry> page = journal.read(to, null, null, PAGE);
        if (page.isEmpty()) throw new IllegalStateException("the journal ends before event " + upTo + " the history took");
        for (JournalEntry e : page) if (Ahead.counts(e.type())) marks.addLast(new Mark(e.seq(), e.type(), e.jobId()));
        to = page.get(page.size() - 1).seq();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the journal: " + e.getMessage(), e);
    }
    Ahead a = Ahead.NONE;
    for (Mark m : marks) {
      if (m.seq() > upTo) break;
      a = a.plus(m.type(), m.jobId());
    }
    return a;
  }

  @Override
  public boolean endsWrite(long seq) {
    return writes.endsWrite(seq);
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
  public long live() {
    try {
      return history.count(new JobQuery(List.of(), JobState.live(), null, 0));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count live jobs in the history: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<GroupFacts> group(String group, long idBelow) {
    try {
      List<GroupCounts> counts = history.groups(group, idBelow);
      if (counts.isEmpty()) return Optional.empty();
      return Optional.of(new GroupFacts(group, counts.get(0).counts(), null, null));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read group " + group + " from the history: " + e.getMessage(), e);
    }
  }

  @Override
  public List<JobState> states(String group, Collection<Long> ids) {
    List<long[]> ranges = new ArrayList<>();
    for (long id : new TreeSet<>(ids)) {
      long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
      if (last != null && last[1] + 1 == id) last[1] = id;
      else ranges.add(new long[] {id, id});
    }
    try {
      return history.refs(new JobQuery(ranges, Set.of(), group, 0)).stream().map(JobRef::state).toList();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read group " + group + " from the history: " + e.getMessage(), e);
    }
  }

  @Override
  public GroupFacts times(GroupFacts g, long idBelow) {
    try {
      Instant first = null, last = null;
      var q = new JobQuery(List.of(), Set.of(), g.group(), 1_000_000, false, idBelow == Long.MAX_VALUE ? 0 : idBelow, null);
      for (Job j : history.listed(q)) {
        Instant began = j.startTime() != null ? j.startTime() : j.submitTime();
        if (began != null && (first == null || began.isBefore(first))) first = began;
        if (j.endTime() != null && (last == null || j.endTime().isAfter(last))) last = j.endTime();
      }
      return new GroupFacts(g.group(), g.counts(), first, last);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read group " + g.group() + " from the history: " + e.getMessage(), e);
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

package dev.gq.actors.socket;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerView;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.HistoryFact;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.schedule.Request;
import dev.gq.host.fs.RegularFiles;
import dev.gq.persistence.GroupCounts;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JobRef;
import dev.gq.persistence.JournalEntry;
import dev.gq.persistence.JournalReader;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The requests answered from the job history and the journal: listings, one job, group counts,
 * events, and deleting ended jobs ({@code gq rm}, {@code gq clean}). The history is read after the
 * Projector has caught up with the Scheduler's view, so a reader sees at least what the Scheduler
 * had decided when the request arrived. A deletion reads the facts of the jobs it names here, the
 * Scheduler decides and stores one {@code JobsRemoved} per page (the Projector then deletes the
 * rows), and only after that are the jobs' files deleted.
 */
final class HistoryRequests {
  static final int PAGE = 500;
  /** The ledger taken for a listing's pages, as of event {@code seqNr} (-1: not known exactly). */
  private record Taken(WeakReference<Ledger> ledger, long seqNr) {}

  private volatile Taken taken;
  private final SchedulerAsks asks;
  private final JobHistory jobHistory;
  private final JournalReader journal;
  private final JobFiles files;

  HistoryRequests(SchedulerAsks asks, JobHistory jobHistory, JournalReader journal, JobFiles files) {
    this.asks = asks;
    this.jobHistory = jobHistory;
    this.journal = journal;
    this.files = files;
  }

  List<Job> jobs(JobQuery q) throws ApiException {
    asks.historySynced();
    try {
      charge(q);
      return jobHistory.listed(q);
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  JobPage jobPage(JobQuery q) throws ApiException {
    asks.historySynced();
    try {
      charge(q);
      return jobHistory.page(q);
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  /**
   * A page of a listing whose live jobs come from the Scheduler's memory, only their commands and
   * log paths read from the history. The ledger is taken between two readings of the stored
   * sequence number (when they agree, it is known to be as of that event) and serves the later pages
   * while the Scheduler stores nothing new (held weakly: it never outlives the Scheduler's own).
   */
  JobPage listingPage(JobQuery q, boolean logPaths) throws ApiException {
    long seqNr = asks.askPlain(Scheduler.GetSeqNr::new);
    Taken t = taken;
    Ledger ledger = t == null || t.seqNr() != seqNr ? null : t.ledger().get();
    if (ledger == null) {
      ledger = asks.askPlain(Scheduler.GetLedger::new);
      long after = asks.askPlain(Scheduler.GetSeqNr::new);
      t = new Taken(new WeakReference<>(ledger), after == seqNr ? seqNr : -1);
      taken = t;
      seqNr = after;
    }
    asks.caughtUp(seqNr);
    try {
      charge(q);
      return jobHistory.page(q, ledger.live(), t.seqNr(), logPaths);
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  /** Charges a listing longer than a page to the request before its rows are read ({@link AnswerCharges}). */
  private void charge(JobQuery q) throws SQLException, ApiException {
    if (q.limit() > 0 && q.limit() <= PAGE) return;
    long rows = jobHistory.count(q);
    AnswerCharges.rows(q.limit() > 0 ? Math.min(rows, q.limit()) : rows);
  }

  Optional<Job> job(long id) throws ApiException {
    // synced: the history has every event the view has, so its row is the job's whole current
    // record (the Scheduler's memory keeps a live job without its command and log path)
    SchedulerView v = asks.synced();
    try {
      Optional<Job> stored = jobHistory.job(id);
      return stored.isPresent() ? stored : Optional.ofNullable(v.ledger().live().get(id));
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  Optional<Job> newestAttempt(long id) throws ApiException {
    asks.synced();
    try {
      var fact = jobHistory.lineages(List.of(id)).get(id);
      return fact == null ? Optional.empty() : job(fact.newest());
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  long count(JobQuery q) throws ApiException {
    asks.historySynced();
    try {
      return jobHistory.count(q);
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /**
   * Counts of every group ({@code only} null) or one, merged with the holds and caps; held or capped
   * groups appear without jobs too.
   */
  List<GroupSummary> groups(String only) throws ApiException {
    var ledger = asks.synced().ledger();
    Map<String, String> holds = ledger.holds();
    Map<String, Integer> caps = ledger.settings().maxRunning();
    Map<String, Integer> perGpu = ledger.settings().perGpu();
    Map<String, GroupSummary> out = new TreeMap<>();
    try {
      for (GroupCounts c : jobHistory.groups(only)) {
        String reason = holds.get(c.group());
        out.put(c.group(), new GroupSummary(c.group(), c.counts(), c.retried(), reason,
            reason != null && ledger.autoHeld().contains(c.group()), caps.get(c.group()), perGpu.get(c.group())));
      }
    } catch (SQLException e) {
      throw failed(e);
    }
    Set<String> more = new TreeSet<>(holds.keySet());
    more.addAll(caps.keySet());
    more.addAll(perGpu.keySet());
    for (String g : more) {
      if ((only == null || only.equals(g)) && !out.containsKey(g))
        out.put(g, new GroupSummary(g, Map.of(), 0, holds.get(g), holds.containsKey(g) && ledger.autoHeld().contains(g),
            caps.get(g), perGpu.get(g)));
    }
    return new ArrayList<>(out.values());
  }

  /** Deletes exactly {@code ids}, or nothing with the first reason why not. */
  List<Long> remove(List<Long> ids) throws ApiException {
    asks.synced();
    Map<Long, JobRef> found = new HashMap<>();
    try {
      for (JobRef r : jobHistory.refs(ids)) found.put(r.id(), r);
    } catch (SQLException e) {
      throw failed(e);
    }
    Map<Long, HistoryFact> facts = new HashMap<>();
    found.forEach((id, r) -> facts.put(id, r.fact()));
    List<Long> removed = asks.ask(new Request.Remove(List.copyOf(ids), facts));
    for (long id : removed) files.delete(id, found.get(id).logPath());
    return removed;
  }

  /** Deletes every job in {@code states} (any ended state when empty) that ended before {@code before}, a page at a time. */
  int clean(Instant before, Set<JobState> states) throws ApiException {
    asks.synced();
    Set<JobState> ended = JobState.endedAmong(states);
    if (ended.isEmpty()) return 0;
    Set<JobState> chosen = Set.copyOf(states);
    int total = 0;
    long after = 0;
    while (true) {
      List<JobRef> refs;
      try {
        refs = jobHistory.refs(new JobQuery(List.<long[]>of(new long[] {after + 1, Long.MAX_VALUE}), ended, null, PAGE,
            false, 0, before));
      } catch (SQLException e) {
        throw failed(e);
      }
      if (refs.isEmpty()) return total;
      Map<Long, JobRef> byId = new HashMap<>();
      refs.forEach(r -> byId.put(r.id(), r));
      List<HistoryFact> page = refs.stream().map(JobRef::fact).toList();
      List<Long> removed = asks.ask(new Request.Clean(page, chosen, before));
      for (long id : removed) files.delete(id, byId.get(id).logPath());
      total += removed.size();
      if (refs.size() < PAGE) return total;
      after = refs.get(refs.size() - 1).id();
    }
  }

  /** A job's log, opened only when it is a regular file; empty when it is not there. */
  Optional<FileChannel> openLog(Path path) throws ApiException, IOException {
    try {
      return Optional.of(RegularFiles.openForReading(path));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (RegularFiles.NotRegularFileException e) {
      throw new ApiException(path + " is not a regular file (it is " + e.kind()
          + "); gq reads a job's log only from the file its output went to: remove it or put the log back");
    }
  }

  List<GqApi.StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException {
    try {
      return journal.read(afterSeq, jobId, since, limit).stream().map(HistoryRequests::stored).toList();
    } catch (SQLException e) {
      throw journalFailed(e);
    }
  }

  long eventsTail(Long jobId, Instant since, int count) throws ApiException {
    try {
      return journal.tailStart(jobId, since, count);
    } catch (SQLException e) {
      throw journalFailed(e);
    }
  }

  private static GqApi.StoredEvent stored(JournalEntry e) {
    return new GqApi.StoredEvent(e.seq(), e.time(), e.type(), e.jobId(), e.fields());
  }

  static ApiException failed(SQLException e) {
    return new ApiException("cannot read the job history: " + e.getMessage() + "; see the daemon log");
  }

  private static ApiException journalFailed(SQLException e) {
    return new ApiException("cannot read the event journal: " + e.getMessage() + "; see the daemon log");
  }
}

package dev.gq.persistence;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.JobTransitions;
import dev.gq.core.ledger.LedgerEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Applies one job event to the history's rows, inside the transaction {@link JobHistory#apply}
 * holds: the job's row after {@link JobTransitions}, a submission's shared command filled in from
 * the job it names. Used under the history's lock only.
 */
final class HistoryWrites {
  /**
   * How many rows last written are kept in memory, so that their job's next event and its launch
   * need not read them back: the jobs a busy queue is starting and ending. Few, since a row holds its
   * command and environment. What is shown ({@code gq show}, the notifier) is read from the file.
   */
  static final int KEPT = 256;

  private final Connection db;
  /** The job a submission last shared its command with (a job's spec never changes, so it stays true). */
  private Job lastSource;
  /**
   * The rows last written, as written: each event of a busy queue's job would otherwise read its row
   * and its JSON back, and so would its launch. Written under the history's lock, read without it
   * ({@link JobHistory#launchRead}); the oldest go first. Forgotten with a rolled back transaction.
   */
  private final Map<Long, Job> kept = new ConcurrentHashMap<>();
  private final ArrayDeque<Long> keptOrder = new ArrayDeque<>();
  private PreparedStatement upsert;
  private PreparedStatement deletedQuery;

  HistoryWrites(Connection db) {
    this.db = db;
  }

  /** The row of job {@code id} as last written, when kept; null otherwise. Any thread. */
  Job kept(long id) {
    return kept.get(id);
  }

  /** Forgets every kept row (a transaction rolled back: they may not be stored). */
  void forgetKept() {
    kept.clear();
    keptOrder.clear();
  }

  /** Forgets the kept rows of {@code ids} (deleted from the history). */
  void forget(Collection<Long> ids) {
    ids.forEach(kept::remove);
  }

  /** Applies one job event; one for a job deleted from the history is skipped. */
  void apply(LedgerEvent.JobEvent je) throws SQLException {
    if (je instanceof LedgerEvent.JobSubmitted s) {
      if (!deleted(s.jobId())) upsert(JobTransitions.next(null, completed(s)));
      return;
    }
    if (je instanceof LedgerEvent.JobAdopted a) {
      if (!deleted(a.jobId())) upsert(JobTransitions.next(null, a));
      return;
    }
    Job known = kept.get(je.jobId());
    Optional<Job> before = known != null ? Optional.of(known) : JobDocuments.jobOn(db, je.jobId());
    if (before.isPresent()) upsert(JobTransitions.next(before.get(), je));
    else if (!deleted(je.jobId())) throw new SQLException("history has no job " + je.jobId() + " to update");
  }

  /**
   * The submission with the command it shares filled in from the job it names (its retry source,
   * or its batch's first job), so every row holds its whole command; as stored when that job's row
   * is gone (launching it then fails, saying so).
   */
  private LedgerEvent.JobSubmitted completed(LedgerEvent.JobSubmitted s) throws SQLException {
    if (s.sameAs() == null) return s;
    // the lines of a batch all name its first job: read it once
    if (lastSource == null || lastSource.id() != s.sameAs()) {
      Optional<Job> source = JobDocuments.jobOn(db, s.sameAs());
      if (source.isEmpty()) return s;
      lastSource = source.get();
    }
    return new LedgerEvent.JobSubmitted(s.jobId(), s.spec().completedFrom(lastSource.spec()), s.tag(), s.logPath(),
        s.retryOf(), s.waitsFor(), s.at(), s.sameAs());
  }

  /** Whether job {@code id} was deleted from the history (asked at every submission: its statement is kept). */
  private boolean deleted(long id) throws SQLException {
    if (deletedQuery == null) deletedQuery = db.prepareStatement(HistoryDeletes.DELETED);
    deletedQuery.setLong(1, id);
    try (ResultSet rs = deletedQuery.executeQuery()) {
      return rs.next();
    }
  }

  /**
   * Writes a job's row, new or not. An upsert, not INSERT OR REPLACE: inside a transaction SQLite
   * keeps a statement journal of every page a REPLACE may change (the table's and each of its
   * indexes'), which was most of the history's writing (a batch of 20,000 jobs wrote 750 MB to it);
   * the row that results is the same.
   */
  static final String UPSERT = "INSERT INTO jobs (id, state, group_name, job_key, end_time, retry_of, doc, submit_ms, start_ms,"
      + " end_ms, gpu_list, share_mib, share_per_gpu) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET"
      + " state = excluded.state, group_name = excluded.group_name, job_key = excluded.job_key, end_time = excluded.end_time,"
      + " retry_of = excluded.retry_of, doc = excluded.doc, submit_ms = excluded.submit_ms, start_ms = excluded.start_ms,"
      + " end_ms = excluded.end_ms, gpu_list = excluded.gpu_list, share_mib = excluded.share_mib,"
      + " share_per_gpu = excluded.share_per_gpu";

  private void upsert(Job j) throws SQLException {
    if (upsert == null) upsert = db.prepareStatement(UPSERT);
    PreparedStatement ps = upsert;
    {
      ps.setLong(1, j.id());
      ps.setString(2, j.state().name());
      ps.setString(3, j.spec().group());
      ps.setString(4, j.spec().key());
      ps.setString(5, j.endTime() == null ? null : j.endTime().toString());
      ps.setObject(6, j.retryOf());
      ps.setString(7, JobDocuments.write(j));
      ps.setObject(8, millis(j.submitTime()));
      ps.setObject(9, millis(j.startTime()));
      ps.setObject(10, millis(j.endTime()));
      ps.setString(11, UsageReads.gpuList(j.gpus()));
      GpuNeed need = j.spec().gpuNeed();
      boolean shared = need != null && need.share();
      ps.setObject(12, shared ? need.vramMiB() : null);
      ps.setObject(13, shared ? need.perGpu() : null);
      ps.executeUpdate();
    }
    if (kept.put(j.id(), j) == null) keptOrder.addLast(j.id());
    while (keptOrder.size() > KEPT) kept.remove(keptOrder.removeFirst());
  }

  private static Long millis(Instant t) {
    return t == null ? null : t.toEpochMilli();
  }
}

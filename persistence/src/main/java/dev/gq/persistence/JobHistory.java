package dev.gq.persistence;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.ledger.JobTransitions;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.LedgerEvent;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The history of every job, in the `jobs` table of the same SQLite file, derived from the journal:
 * each event is applied with {@link JobTransitions} (the Ledger's own rule) and the offset of the
 * last applied sequence number is stored in the same transaction, so a crash never leaves it half
 * applied and catching up is idempotent. A {@code JobsRemoved} deletes the rows it names: the
 * history is written only by applying events, so it can be rebuilt from the journal at any time.
 * One connection, used under this object's lock. Listings decode a row once: {@link ListingCache}
 * keeps the decoded rows, and {@link #apply} forgets each row it writes or deletes.
 */
public final class JobHistory implements AutoCloseable {
  private final Connection db;
  /** Where {@link #launchRead} opens its own connection; null: it reads through {@code db}. */
  private final Path file;
  private final Object launchLock = new Object();
  private Connection launchReader;
  private final HistoryWrites writes;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private volatile long committed;
  /** The decoded listing rows (room for a long queue of waiting jobs and the ended ones shown with it); every group's last count. */
  private final ListingCache listing = new ListingCache(LISTING_CACHE);
  private final GroupTally tally = new GroupTally();
  static final int LISTING_CACHE = 8192;

  private JobHistory(Connection db, Path file) {
    this.db = db;
    this.file = file;
    this.writes = new HistoryWrites(db);
  }

  /**
   * Opens the history of a prepared database; a history that was dropped or emptied (no
   * tables, no offset, or no rows while its offset says events were applied) starts again from
   * offset 0, so the next catch-up rebuilds it from the journal.
   */
  public static JobHistory open(Path file) throws SQLException {
    Connection db = DriverManager.getConnection(Database.historyUrl(file) + "&transaction_mode=IMMEDIATE");
    try {
      JobHistoryTables.restore(db);
    } catch (SQLException e) {
      db.close();
      throw e;
    }
    return new JobHistory(db, file);
  }

  /**
   * Job {@code id} as stored, read on a connection of its own: a reader in WAL mode never waits
   * for a write in progress, so a job's launch does not queue behind the Projector writing the
   * very events that placed it. Empty when the row is not there (yet).
   */
  public Optional<Job> launchRead(long id) throws SQLException {
    // the row just written that placed it, most often
    Job kept = writes.kept(id);
    if (kept != null) return Optional.of(kept);
    synchronized (launchLock) {
      if (launchReader == null) launchReader = DriverManager.getConnection(Database.url(file));
      return JobDocuments.jobOn(launchReader, id);
    }
  }

  /** The last event this history committed since it was opened (0 before its first write): every read sees it, without a query or lock. */
  public long committed() {
    return committed;
  }

  /** The sequence number of the last event applied. */
  public synchronized long offset() throws SQLException {
    try (ResultSet rs = prepared("SELECT seq FROM read_offset WHERE id = 1").executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /**
   * The statement for {@code sql} on the history's connection, prepared once: a busy queue asks the
   * same few questions at every event. Under the history's lock only.
   */
  private PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      ps = db.prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
  }

  /** Applies events numbered {@code firstSeq, firstSeq+1, ...}; those at or below the offset are skipped. */
  public synchronized void apply(long firstSeq, List<LedgerEvent> events) throws SQLException {
    // IMMEDIATE transactions (see open): the offset is read under the write lock, so no other
    // writer can slip in between reading it and moving it.
    db.setAutoCommit(false);
    try {
      long offset = offset();
      if (firstSeq > offset + 1)
        throw new SQLException("the job history is at event " + offset + " but was handed events from " + firstSeq);
      long seq = firstSeq;
      for (LedgerEvent e : events) {
        // forgotten before the write: a rolled back transaction leaves nothing stale either
        if (seq > offset && e instanceof LedgerEvent.JobEvent je) {
          listing.forget(je.jobId());
          writes.apply(je);
        } else if (seq > offset && e instanceof LedgerEvent.JobsRemoved r) {
          listing.forget(r.jobIds());
          writes.forget(r.jobIds());
          HistoryDeletes.delete(db, r.jobIds());
        }
        seq++;
      }
      PreparedStatement moved = prepared("INSERT OR REPLACE INTO read_offset (id, seq) VALUES (1, ?)");
      moved.setLong(1, Math.max(offset, seq - 1));
      moved.executeUpdate();
      db.commit();
      committed = Math.max(committed, Math.max(offset, seq - 1));
    } catch (SQLException | RuntimeException e) {
      db.rollback();
      writes.forgetKept();
      throw e;
    } finally {
      db.setAutoCommit(true);
    }
  }

  public synchronized Optional<Job> job(long id) throws SQLException {
    PreparedStatement ps = prepared("SELECT doc FROM jobs WHERE id = ?");
    ps.setLong(1, id);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(JobDocuments.read(rs.getString(1))) : Optional.empty();
    }
  }

  /** Jobs matching {@code q}, newest first. */
  public synchronized List<Job> jobs(JobQuery q) throws SQLException {
    JobSql w = JobSql.of(q);
    return query(w.select("j.doc", q), w.args());
  }

  /**
   * Jobs matching {@code q}, newest first, for listing (without their environments, as
   * {@link #listed}), skipping a row whose record cannot be read: its id is in
   * {@link JobPage#unreadable()}, so that one damaged row never hides the others.
   */
  public synchronized JobPage page(JobQuery q) throws SQLException {
    return ListingPages.page(db, listing, q);
  }

  /**
   * As {@link #page(JobQuery)}, each row of a job {@code live} holds (the Scheduler's memory, as of
   * event {@code liveAt}; -1: not known exactly) made from it with the command (and with {@code
   * logPaths} the log path) read from the row. While the cache holds every live job, the rows are
   * made whole and kept in it, for the next listing; a longer queue would only churn it.
   */
  public synchronized JobPage page(JobQuery q, Map<Long, Job> live, long liveAt, boolean logPaths) throws SQLException {
    boolean held = live.size() <= LISTING_CACHE;
    boolean cached = held && liveAt >= 0 && liveAt == offset();
    return ListingPages.page(db, listing, q, new LiveRows(live, cached, logPaths || held));
  }

  /**
   * Jobs matching {@code q}, newest first, for listing: each without its environment (an empty
   * map), which SQLite drops before the document is decoded, since a listing never shows it and it
   * is most of a document's size.
   */
  public synchronized List<Job> listed(JobQuery q) throws SQLException {
    JobSql w = JobSql.of(q);
    return query(w.select(JobSql.WITHOUT_ENV, q), w.args());
  }

  /** How many jobs match {@code q} (its limit ignored). */
  public synchronized long count(JobQuery q) throws SQLException {
    JobSql w = JobSql.of(q);
    try (PreparedStatement ps = db.prepareStatement("SELECT count(*) FROM jobs j WHERE " + w.where())) {
      for (int i = 0; i < w.args().size(); i++) ps.setObject(i + 1, w.args().get(i));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** Id, state and log path of the jobs matching {@code q}, oldest first, without reading their documents. */
  public synchronized List<JobRef> refs(JobQuery q) throws SQLException {
    return JobRef.matching(db, q);
  }

  /** Id, state and log path of those of {@code ids} that exist, by ascending id. */
  public synchronized List<JobRef> refs(List<Long> ids) throws SQLException {
    return HistoryDeletes.refs(db, ids);
  }

  /**
   * For each of {@code ids} that exists: its retry lineage, the newest attempt of that lineage and
   * that attempt's state (what a retry or a wait needs to know about jobs no longer live).
   */
  public synchronized Map<Long, LineageFact> lineages(List<Long> ids) throws SQLException {
    return Lineages.facts(db, ids);
  }

  /** Each group's counts over latest attempts, sorted by name; only {@code group}'s when not null (all: counted once per event). */
  public synchronized List<GroupCounts> groups(String group) throws SQLException {
    return group == null ? tally.all(db, committed) : GroupTally.count(db, group, Long.MAX_VALUE);
  }

  /** The same over the jobs with an id below {@code idBelow} alone, as if no later one were stored. */
  public synchronized List<GroupCounts> groups(String group, long idBelow) throws SQLException {
    return GroupTally.count(db, group, idBelow);
  }

  /** Reads made while the history takes no event: {@code reads} is handed the offset they all see. */
  public interface Still<T> {
    T read(long offset) throws SQLException;
  }

  /** Runs {@code reads} under the history's lock, so that no event is applied between its reads. */
  public synchronized <T> T still(Still<T> reads) throws SQLException {
    return reads.read(offset());
  }

  private List<Job> query(String sql, List<Object> args) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) ps.setObject(i + 1, args.get(i));
      List<Job> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) out.add(JobDocuments.read(rs.getString(1)));
      }
      return out;
    }
  }

  @Override
  public synchronized void close() throws SQLException {
    synchronized (launchLock) {
      if (launchReader != null) launchReader.close();
    }
    db.close();
  }
}

package dev.gq.persistence;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobCancelled;
import dev.gq.core.ledger.LedgerEvent.JobExited;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Feeds a history the events of jobs' lives, numbering them as the journal would. */
final class HistoryFixture {
  static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  private final JobHistory rs;
  long seq;
  /** Every event applied, in order: what the journal would hold. */
  final List<LedgerEvent> applied = new java.util.ArrayList<>();

  HistoryFixture(JobHistory rs) {
    this.rs = rs;
  }

  static JobSpec spec(String group, String key) {
    return new JobSpec(List.of("python", "train.py"), "/w", Map.of(), 1, null, group, key);
  }

  void apply(LedgerEvent... events) throws SQLException {
    rs.apply(seq + 1, List.of(events));
    applied.addAll(List.of(events));
    seq += events.length;
  }

  void submit(long id, String group, Long retryOf) throws SQLException {
    submit(id, group, null, retryOf);
  }

  void submit(long id, String group, String key, Long retryOf) throws SQLException {
    apply(new JobSubmitted(id, spec(group, key), "tag" + id, "/d/logs/" + id + ".log", retryOf, T0));
  }

  /** Submits, runs and ends a job with {@code code} at {@code end}. */
  void ended(long id, String group, Long retryOf, int code, Instant end) throws SQLException {
    ended(id, group, null, retryOf, code, end);
  }

  void ended(long id, String group, String key, Long retryOf, int code, Instant end) throws SQLException {
    submit(id, group, key, retryOf);
    apply(new JobReserved(id, List.of(new GpuSlot("GPU-a", 0)), T0), new JobExited(id, code, null, end));
  }

  void cancelled(long id, String group) throws SQLException {
    submit(id, group, null);
    apply(new JobCancelled(id, "cancelled before it started", T0.plusSeconds(1)));
  }
}

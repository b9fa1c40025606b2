package dev.gq.actors.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.notify.FactsAfter;
import dev.gq.core.notify.GroupFacts;
import dev.gq.persistence.Database;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facts right after an event, read from a real history that has taken later events and the
 * journal that holds them: the later events' queued jobs, retries and ends are taken back.
 */
class HistoryFactsTest {
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  @TempDir Path dir;
  private JobHistory history;
  private JournalReader journal;
  private Connection db;
  private long seq;

  @BeforeEach
  void open() throws Exception {
    Path file = dir.resolve("gq.db");
    Database.prepare(file);
    history = JobHistory.open(file);
    journal = JournalReader.open(file);
    db = DriverManager.getConnection(Database.url(file));
  }

  @AfterEach
  void close() throws Exception {
    db.close();
    journal.close();
    history.close();
  }

  /** Stores {@code e} in the journal, as the Scheduler's JSON, and applies it to the history. */
  private void store(LedgerEvent.JobEvent e) throws Exception {
    seq++;
    try (PreparedStatement ps = db.prepareStatement("INSERT INTO event_journal (deleted, persistence_id, sequence_number,"
        + " writer, write_timestamp, adapter_manifest, event_payload, event_ser_id, event_ser_manifest)"
        + " VALUES (0, 'scheduler', ?, 'w', 0, '', ?, 31, ?)")) {
      ps.setLong(1, seq);
      ps.setBytes(2, ("{\"jobId\":" + e.jobId() + "}").getBytes(StandardCharsets.UTF_8));
      ps.setString(3, "dev.gq.core.ledger.LedgerEvent$" + e.getClass().getSimpleName());
      ps.executeUpdate();
    }
    history.apply(seq, List.of(e));
  }

  private void submit(long id, String group, Long retryOf) throws Exception {
    store(new LedgerEvent.JobSubmitted(id, new JobSpec(List.of("python", "train.py"), "/w", Map.of(), 1, null, group, null),
        "t" + id, "/d/" + id + ".log", retryOf, T0));
  }

  private void exit(long id, int code) throws Exception {
    store(new LedgerEvent.JobExited(id, code, null, T0.plusSeconds(id)));
  }

  @Test
  void whatTheHistoryTookAfterTheEventIsTakenBack() throws Exception {
    submit(1, "sw", null); // 1
    submit(2, "sw", null); // 2
    submit(3, null, null); // 3
    exit(1, 0); // 4
    exit(2, 1); // 5: the sweep has no live job
    submit(4, "sw", 2L); // 6: job 2 retried
    exit(3, 0); // 7
    WriteEnds writes = new WriteEnds();
    var facts = new FactsAfter(new HistoryFacts(history, journal, writes, Duration.ZERO));

    assertEquals(2, facts.liveJobs(4), "jobs 2 and 3 ran then");
    assertEquals(Map.of(JobState.DONE, 1, JobState.RUNNING, 1), facts.group("sw", 4).map(GroupFacts::counts).orElseThrow());
    assertEquals(1, facts.liveJobs(5), "job 3 ran then; job 4 was not queued yet");
    assertEquals(Map.of(JobState.DONE, 1, JobState.FAILED, 1), facts.group("sw", 5).map(GroupFacts::counts).orElseThrow(),
        "the retry was not stored yet: job 2 was the latest attempt of its cell");
    assertEquals(Map.of(JobState.DONE, 1, JobState.WAITING, 1), facts.group("sw", 7).map(GroupFacts::counts).orElseThrow());
    assertEquals(1, facts.liveJobs(7));
    assertEquals(3, facts.liveJobs(3), "read again from further back");
    assertTrue(facts.group("sw", 0).isEmpty(), "nothing of it was stored then");
    GroupFacts timed = facts.times(facts.group("sw", 5).orElseThrow(), 5);
    assertEquals(T0.plusSeconds(2), timed.lastEnd(), "its last end then");

    var behind = assertThrows(IllegalStateException.class, () -> facts.liveJobs(8));
    assertEquals("the job history is at event 7, behind event 8 being decided", behind.getMessage());

    writes.stored(5);
    assertTrue(facts.endsWrite(5) && !facts.endsWrite(4));
    writes.decided(5);
    assertFalse(facts.endsWrite(5), "not asked again once decided");
  }
}

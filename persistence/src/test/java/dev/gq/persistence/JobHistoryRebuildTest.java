package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobsRemoved;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A history dropped or emptied starts again from offset 0, and applying the same events gives the same history. */
class JobHistoryRebuildTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobQuery ALL = new JobQuery(List.of(), Set.of(), null, 0);
  @TempDir Path dir;
  Path file;
  /** Every event applied, in order: what the journal would hold. */
  final List<LedgerEvent> journal = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    file = dir.resolve("gq.db");
    Database.prepare(file);
    try (JobHistory rs = JobHistory.open(file)) {
      HistoryFixture h = new HistoryFixture(rs);
      h.ended(1, "g", null, 3, T.plusSeconds(1));
      h.ended(2, "g", 1L, 0, T.plusSeconds(2));
      h.cancelled(3, "g");
      h.submit(4, "g", null);
      h.apply(new JobsRemoved(List.of(3L), T.plusSeconds(3)));
      h.ended(5, null, null, 0, T.plusSeconds(4));
      journal.addAll(h.applied);
    }
  }

  private List<Job> rebuilt(String... damage) throws Exception {
    try (var c = DriverManager.getConnection(Database.url(file)); var st = c.createStatement()) {
      for (String sql : damage) st.execute(sql);
    }
    try (JobHistory rs = JobHistory.open(file)) {
      assertEquals(0, rs.offset(), "starts again from the beginning of the journal");
      rs.apply(1, journal);
      assertEquals(journal.size(), rs.offset());
      return rs.jobs(ALL);
    }
  }

  private List<Job> live() throws Exception {
    try (JobHistory rs = JobHistory.open(file)) {
      assertEquals(journal.size(), rs.offset());
      return rs.jobs(ALL);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "DROP TABLE jobs; DROP TABLE deleted_jobs; DROP TABLE read_offset",
      "DELETE FROM jobs; DELETE FROM deleted_jobs",
      "DELETE FROM read_offset",
      "DROP TABLE jobs"})
  void aDroppedOrEmptiedReadSideIsRebuiltEqualToTheLiveOne(String damage) throws Exception {
    List<Job> before = live();
    assertEquals(List.of(5L, 4L, 2L, 1L), before.stream().map(Job::id).toList());
    assertEquals(before, rebuilt(damage.split("; ")));
  }

  @Test
  void aWholeReadSideIsKeptAsItIs() throws Exception {
    live();
    try (JobHistory rs = JobHistory.open(file)) {
      assertEquals(journal.size(), rs.offset());
    }
  }

  @Test
  void aJobDeletedBeforeDeletionsWereJournaledStaysDeletedWhenRebuilt() throws Exception {
    // a deletion remembered only in deleted_jobs: the journal has no JobsRemoved for job 1
    try (var c = DriverManager.getConnection(Database.url(file)); var st = c.createStatement()) {
      st.execute("INSERT INTO deleted_jobs (id) VALUES (1)");
      st.execute("DELETE FROM jobs WHERE id = 1");
    }
    assertEquals(List.of(5L, 4L, 2L), rebuilt("DELETE FROM read_offset").stream().map(Job::id).toList());
  }
}

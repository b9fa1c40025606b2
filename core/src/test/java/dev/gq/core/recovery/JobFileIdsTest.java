package dev.gq.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.JobIdsSkipped;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class JobFileIdsTest {
  private static final Instant T = Instant.parse("2026-11-30T10:00:00Z");
  private static final JobSpec SPEC = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null);

  @Test
  void aFileBelongsToTheJobItsLeadingDigitsName() {
    assertEquals(OptionalLong.of(12), JobFileIds.idOf("12.log"));
    assertEquals(OptionalLong.of(12), JobFileIds.idOf("12.exit"));
    assertEquals(OptionalLong.of(7), JobFileIds.idOf("7.exit.tmp"));
    for (String other : List.of(".reserve", "log", "12", "0.log", "a12.log", "12a.log", "-3.log", "99999999999999999999.log"))
      assertTrue(JobFileIds.idOf(other).isEmpty(), other);
    assertEquals(45, JobFileIds.highest(List.of("3.log", "45.exit", "x.log", "40.log")));
    assertEquals(0, JobFileIds.highest(List.of()));
  }

  @Test
  void onlyALogOrAnExitRecordShowsThatAJobRan() {
    assertTrue(JobFileIds.provesARun("12.log"));
    assertTrue(JobFileIds.provesARun("12.exit"));
    assertFalse(JobFileIds.provesARun("12.progress"), "written beside a log, never alone");
    assertFalse(JobFileIds.provesARun("12.exit.4242.tmp"), "the shim's unfinished record");
    assertFalse(JobFileIds.provesARun("12.log.old"));
    assertFalse(JobFileIds.provesARun("notes.log"));
  }

  @Test
  void theNextIdMovesPastTheHighestIdWithFiles() {
    Ledger l = Ledger.empty().apply(new JobSubmitted(1, SPEC, "t", "/l/1.log", null, T));
    JobIdsSkipped e = JobFileIds.skipPast(l, 45, T).orElseThrow();
    assertEquals(46, e.nextId());
    assertEquals("logs/ or run/ hold files of job 45, which the history does not know; no id up to it is issued again", e.reason());
    Ledger after = l.apply(e);
    assertEquals(46, after.nextId());
    assertEquals(l.live(), after.live());
    assertTrue(after.issued(45), "an id with files counts as issued");
  }

  @Test
  void nothingMovesWhenTheHistoryIsAheadOfTheFiles() {
    Ledger l = Ledger.empty().apply(new JobSubmitted(1, SPEC, "t", "/l/1.log", null, T));
    assertTrue(JobFileIds.skipPast(l, 1, T).isEmpty(), "job 1's own files");
    assertTrue(JobFileIds.skipPast(l, 0, T).isEmpty(), "no files");
    assertEquals(2, JobFileIds.skipPast(Ledger.empty(), 1, T).orElseThrow().nextId(), "a file of job 1 in a new history");
  }

  @Test
  void anOlderSkipNeverMovesTheNextIdBack() {
    Ledger l = Ledger.empty().apply(new JobIdsSkipped(50, "r", T)).apply(new JobIdsSkipped(20, "r", T));
    assertEquals(50, l.nextId());
  }
}

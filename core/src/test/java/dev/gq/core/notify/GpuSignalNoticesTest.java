package dev.gq.core.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code unhealthy} and {@code idle} messages: what they say and who hears them. */
class GpuSignalNoticesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static NoticeRulesTest.Facts facts() {
    var f = new NoticeRulesTest.Facts();
    f.live = 1;
    f.jobs.put(7L, new JobFacts(7, "train.py", "sweep", JobState.RUNNING, T0, null, null, null, null));
    return f;
  }

  @Test
  void aGpuDrainedForItsHealthIsToldOnceAsUnhealthy() {
    var e = new LedgerEvent.GpuDrained("GPU-a", "unwell: Xid 79: fell off the bus", T0);
    var o = NoticeRules.decide(5, e, facts(), NotifierMemory.EMPTY);
    assertEquals(1, o.notices().size());
    Notice n = o.notices().get(0);
    assertEquals(NoticeKind.UNHEALTHY, n.kind());
    assertEquals("GPU GPU-a is unwell (Xid 79: fell off the bus): drained, no new job goes on it and a job running there"
        + " keeps running; 'gq gpu resume' gives it back once it is fixed", n.text());
    assertTrue(Routing.wants(n, NoticeKind.DEFAULTS, null));
    assertFalse(Routing.wants(n, Set.of(NoticeKind.FAILED), null));
  }

  @Test
  void aDrainTheUserAskedForIsNotAMessage() {
    var e = new LedgerEvent.GpuDrained("GPU-a", "kept for notebooks", T0);
    assertEquals(0, NoticeRules.decide(5, e, facts(), NotifierMemory.EMPTY).notices().size());
  }

  @Test
  void anIdleJobIsToldWithHowLongItsGpusDidNothing() {
    var e = new LedgerEvent.JobIdleNoted(7, T0, T0.plus(Duration.ofMinutes(45)));
    var o = NoticeRules.decide(6, e, facts(), NotifierMemory.EMPTY);
    Notice n = o.notices().get(0);
    assertEquals(NoticeKind.IDLE, n.kind());
    assertEquals(7L, n.jobId());
    assertEquals("job 7 (train.py, group sweep) is idle: its GPUs have shown 0% utilisation for 45m; gq does not stop it"
        + " ('gq cancel 7' frees them)", n.text());
    assertTrue(Routing.wants(n, NoticeKind.DEFAULTS, null));
    assertFalse(Routing.wants(n, Set.of(NoticeKind.FAILED, NoticeKind.END), null));
  }

  @Test
  void anIdleNoteOfAJobEndedSinceSaysNothing() {
    var f = facts();
    f.jobs.put(7L, new JobFacts(7, "train.py", null, JobState.DONE, T0, T0, 0, null, null));
    var e = new LedgerEvent.JobIdleNoted(7, T0, T0.plus(Duration.ofMinutes(45)));
    assertEquals(0, NoticeRules.decide(6, e, f, NotifierMemory.EMPTY).notices().size());
  }

  @Test
  void theNewEventsAreWordsUsersType() {
    assertEquals(Set.of(NoticeKind.UNHEALTHY, NoticeKind.IDLE), NoticeKind.parse("unhealthy, idle"));
    assertTrue(NoticeKind.parse("all").containsAll(Set.of(NoticeKind.UNHEALTHY, NoticeKind.IDLE)));
  }
}

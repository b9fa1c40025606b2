package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A held queue and held groups block waiting jobs, and replay restores them. */
class QueueHoldTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static Ledger withJobs() {
    Ledger l = Ledger.empty();
    l = l.apply(new JobSubmitted(1, new JobSpec(List.of("a"), "/", Map.of(), 1, null, "sweep", null), "t1", "/l/1", null, T));
    return l.apply(new JobSubmitted(2, new JobSpec(List.of("b"), "/", Map.of(), 1, null, null, null), "t2", "/l/2", null, T));
  }

  @Test
  void aHeldQueueBlocksEveryWaitingJobUntilReleased() {
    Ledger l = withJobs().apply(new QueuePaused(T));
    assertTrue(l.queueHeld());
    assertEquals(2, l.blocked().size());
    assertEquals("the queue is held; 'gq release --all' lets jobs start", l.blocked().get(1L).text());
    assertEquals("queue held", l.blocked().get(1L).brief());
    assertTrue(l.apply(new QueueResumed(T)).blocked().isEmpty());
  }

  @Test
  void heldGroupBlocksOnlyItsOwnJobs() {
    Ledger l = withJobs().apply(new GroupHeld("sweep", "held by the user", false, T));
    assertEquals(Map.of(1L, new WaitReason.GroupHeld("sweep", "held by the user")), l.blocked());
    assertEquals("group sweep is held: held by the user", l.blocked().get(1L).text());
    assertTrue(l.apply(new GroupReleased("sweep", T)).blocked().isEmpty());
  }

  @Test
  void holdsOfTheQueueAndAGroupSurviveAReplayOfTheSameEvents() {
    List<LedgerEvent> events = List.of(new QueuePaused(T), new GroupHeld("g", "r", true, T));
    Ledger a = Ledger.empty(), b = Ledger.empty();
    for (LedgerEvent e : events) a = a.apply(e);
    for (LedgerEvent e : events) b = b.apply(e);
    assertEquals(a, b);
    assertTrue(a.queueHeld());
    assertEquals(Map.of("g", "r"), a.holds());
  }
}

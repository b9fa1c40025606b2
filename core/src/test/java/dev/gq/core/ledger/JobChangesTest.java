package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Priorities, the front of the queue, single-job holds and changes to waiting jobs. */
class JobChangesTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static Ledger queue(int... priorities) {
    Ledger l = Ledger.empty();
    for (int i = 0; i < priorities.length; i++) {
      JobSpec s = new JobSpec(List.of("x"), "/", Map.of(), 1, null, null, null).withPriority(priorities[i]);
      l = l.apply(new JobSubmitted(i + 1, s, "t" + i, "/l/" + i, null, T));
    }
    return l;
  }

  private static List<Long> order(Ledger l) {
    return l.waiting().stream().map(Job::id).toList();
  }

  private static Ledger applied(Ledger l, Decision<String> d) {
    assertFalse(d.refused(), d.refusal());
    for (LedgerEvent e : d.events()) l = l.apply(e);
    return l;
  }

  @Test
  void higherPriorityGoesFirstAndEqualOnesKeepTheirOrder() {
    assertEquals(List.of(3L, 1L, 4L, 2L), order(queue(0, -5, 7, 0)));
    assertEquals(List.of(1L, 2L, 3L), order(queue(0, 0, 0)));
  }

  @Test
  void aJobMovedToTheFrontGoesAheadOfEveryWaitingJob() {
    Ledger l = queue(0, 3, 0);
    var d = JobChanges.toFront(l, 3, T);
    assertEquals("Job 3 is first in the queue (priority 4).", d.result());
    l = applied(l, d);
    assertEquals(List.of(3L, 2L, 1L), order(l));
    assertEquals("Job 3 is already first.", JobChanges.toFront(l, 3, T).result());
    assertTrue(JobChanges.toFront(queue(100, 0), 2, T).refused(), "nothing is above the highest priority");
  }

  @Test
  void aChangeAppliesToTheWaitingJobAndSaysWhatItIsNow() {
    Ledger l = queue(0);
    var d = JobChanges.change(l, 1, new JobChanges.Change(2, 9, true, Duration.ofHours(2)), 4, T);
    assertEquals("Job 1: 2 GPU(s), priority 9, time limit 2h.", d.result());
    l = applied(l, d);
    JobSpec s = l.live().get(1L).spec();
    assertEquals(List.of(2, 9, Duration.ofHours(2)), List.of(s.gpus(), s.priority(), s.timeLimit()));
    l = applied(l, JobChanges.change(l, 1, new JobChanges.Change(null, null, true, null), 4, T));
    assertNull(l.live().get(1L).spec().timeLimit());
    assertEquals(2, l.live().get(1L).spec().gpus(), "what is not named stays");
  }

  @Test
  void aChangeThatCannotBeIsRefusedWithOneLine() {
    Ledger l = queue(0).apply(new JobReserved(1, List.of(), T));
    assertTrue(JobChanges.change(l, 1, new JobChanges.Change(1, null, false, null), 4, T).refusal().contains("STARTING"));
    assertTrue(JobChanges.change(queue(0), 9, new JobChanges.Change(1, null, false, null), 4, T).refusal().contains("not in the queue"));
    assertTrue(JobChanges.change(queue(0), 1, new JobChanges.Change(8, null, false, null), 4, T).refusal().contains("at most 4"));
    assertTrue(JobChanges.change(queue(0), 1, new JobChanges.Change(null, 101, false, null), 4, T).refusal().contains("-100 and 100"));
    assertTrue(JobChanges.change(queue(0), 1, new JobChanges.Change(null, null, false, null), 4, T).refusal().contains("nothing"));
  }

  @Test
  void aHeldJobWaitsSayingHowToReleaseItAndLeavesTheHoldsWhenItEnds() {
    Ledger l = applied(queue(0, 0), JobChanges.hold(queue(0, 0), List.of(2L), true, T));
    assertEquals("held", l.blocked().get(2L).brief());
    assertTrue(l.blocked().get(2L).text().contains("gq release 2"));
    assertFalse(l.blocked().containsKey(1L));
    assertTrue(JobChanges.hold(l, List.of(2L), true, T).events().isEmpty(), "held twice: nothing new");
    Ledger released = applied(l, JobChanges.hold(l, List.of(2L), false, T));
    assertTrue(released.blocked().isEmpty());
    Ledger cancelled = l.apply(new JobCancelled(2, "cancelled", T));
    assertTrue(cancelled.settings().heldJobs().isEmpty(), "an ended job is no longer held");
    assertTrue(JobChanges.hold(queue(0), List.of(1L, 5L), true, T).refused(), "all or none");
  }

  @Test
  void anEnvironmentChangeReachesTheStoredJobButNotTheLedgersMemory() {
    JobSpec spec = new JobSpec(List.of("x"), "/", Map.of("A", "1", "B", "2"), 1, null, null, null);
    Job stored = JobTransitions.next(null, new JobSubmitted(1, spec, "t", "/l", null, T));
    Ledger l = Ledger.empty().apply(new JobSubmitted(1, spec, "t", "/l", null, T));
    var d = JobChanges.change(l, 1, new JobChanges.Change(null, null, false, null, Map.of("C", "3"), List.of("A")), 4, T);
    assertEquals("Job 1: 1 GPU(s), priority 0, no time limit; environment: removed A, set C.", d.result());
    Job after = JobTransitions.next(stored, (JobEvent) d.events().get(0));
    assertEquals(Map.of("B", "2", "C", "3"), after.spec().env(), "as the history stores it, which the launch reads");
    assertEquals(Map.of(), applied(l, d).live().get(1L).spec().env(), "the daemon's memory keeps no environment");
    assertTrue(JobChanges.change(l, 1, new JobChanges.Change(null, null, false, null, Map.of("CUDA_VISIBLE_DEVICES", "3"),
        List.of()), 4, T).refusal().contains("set by gq"));
    assertTrue(JobChanges.change(l, 1, new JobChanges.Change(null, null, false, null, Map.of("1X", "3"), List.of()), 4, T)
        .refusal().contains("not a variable name"));
  }
}

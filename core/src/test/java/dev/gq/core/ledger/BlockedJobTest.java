package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.free;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.Plan;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Why one waiting job may not start, asked of the ledger alone ({@link Ledger#blocked(Job)}): the
 * same words as the ledger's whole map and as the plan gives, so that a screen can ask for the jobs
 * it shows without planning the whole queue.
 */
class BlockedJobTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static JobSpec spec(String group) {
    return new JobSpec(List.of("train.py"), "/", Map.of(), 1, null, group, null);
  }

  /** Job 1 held by the user, 2 in a held group, 3 waiting for job 1 to end, 4 free to start, 5 running. */
  private static Ledger ledger() {
    Ledger l = Ledger.empty();
    l = l.apply(new JobSubmitted(1, spec(null), "t1", "/l/1", null, T));
    l = l.apply(new JobSubmitted(2, spec("sweep"), "t2", "/l/2", null, T));
    l = l.apply(new JobSubmitted(3, spec(null), "t3", "/l/3", null, List.of(new Prerequisite(1, 1, false, null)), T, null));
    l = l.apply(new JobSubmitted(4, spec(null), "t4", "/l/4", null, T));
    l = l.apply(new JobSubmitted(5, spec(null), "t5", "/l/5", null, T));
    l = l.apply(new JobReserved(5, List.of(new GpuSlot("GPU-1", 1)), T));
    l = l.apply(new JobsHeld(List.of(1L), true, T));
    return l.apply(new GroupHeld("sweep", "held by the user", false, T));
  }

  @Test
  void eachJobsReasonIsTheOneTheWholeMapAndThePlanGive() {
    Ledger l = ledger();
    Map<Long, WaitReason> all = l.blocked();
    Plan plan = FailFastGate.plan(l, List.of(free(0)), FailFast.OFF, Set.of());
    for (Job j : l.live().values()) {
      assertEquals(all.get(j.id()), l.blocked(j), "job " + j.id());
      if (l.blocked(j) != null) assertEquals(plan.waitReasons().get(j.id()), l.blocked(j), "job " + j.id());
    }
    assertEquals("held", l.blocked(l.live().get(1L)).brief());
    assertEquals("group held", l.blocked(l.live().get(2L)).brief());
    assertNotNull(l.blocked(l.live().get(3L)));
    assertNull(l.blocked(l.live().get(4L)), "nothing holds job 4: only a plan says why it waits");
    assertNull(l.blocked(l.live().get(5L)), "job 5 is not waiting");
  }

  @Test
  void aHeldQueueHoldsEveryWaitingJobBeforeItsGroupOrItsDependencies() {
    Ledger l = ledger().apply(new QueuePaused(T));
    assertEquals(new WaitReason.QueueHeld(), l.blocked(l.live().get(4L)));
    assertEquals("the queue is held; 'gq release --all' lets jobs start", l.blocked(l.live().get(4L)).text());
    assertEquals("held", l.blocked(l.live().get(1L)).brief(), "a job the user held says so first");
    for (Job j : l.live().values()) assertEquals(l.blocked().get(j.id()), l.blocked(j));
  }
}

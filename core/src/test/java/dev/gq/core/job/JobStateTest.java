package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.ledger.Retries;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobStateTest {
  @Test
  void everyStateIsEitherLiveOrEndedNeverBoth() {
    for (JobState s : JobState.values()) {
      assertTrue(JobState.live().contains(s) != JobState.ended().contains(s), s.name());
      assertEquals(s.terminal(), JobState.ended().contains(s), s.name());
    }
  }

  @Test
  void anOrphanedJobIsLiveSinceItStillHoldsItsGpus() {
    assertTrue(JobState.live().contains(JobState.ORPHANED));
    assertTrue(JobState.ended().contains(JobState.EXITED));
  }

  @Test
  void cleanSelectsEveryEndedStateWhenNoneIsNamedAndOnlyEndedOnesOtherwise() {
    assertEquals(JobState.ended(), JobState.endedAmong(Set.of()));
    assertEquals(Set.of(JobState.FAILED), JobState.endedAmong(EnumSet.of(JobState.FAILED, JobState.RUNNING)));
    assertTrue(JobState.endedAmong(Set.of(JobState.WAITING)).isEmpty());
  }

  @Test
  void theSetsCannotBeChangedByACaller() {
    assertFalse(isChangeable(JobState.live()));
    assertFalse(isChangeable(JobState.ended()));
  }

  @Test
  void aCancelActsOnWaitingAndRunningJobsAndOnThoseBeingPreempted() {
    assertEquals(EnumSet.of(JobState.WAITING, JobState.STARTING, JobState.RUNNING, JobState.PREEMPTING),
        JobState.where(JobState::cancellable));
    assertFalse(isChangeable(JobState.where(JobState::cancellable)));
  }

  @Test
  void theUnsuccessfulStatesAndPreemptedAreThoseARetryTakes() {
    Set<JobState> retried = EnumSet.copyOf(JobState.where(JobState::unsuccessful));
    retried.add(JobState.PREEMPTED);
    assertEquals(retried, Retries.RETRYABLE);
    assertFalse(JobState.PREEMPTED.unsuccessful(), "a preempted job keeps its key");
  }

  private static boolean isChangeable(Set<JobState> s) {
    try {
      s.add(JobState.DONE);
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}

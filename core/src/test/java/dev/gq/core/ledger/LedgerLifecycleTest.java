package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.*;
import static dev.gq.core.ledger.LedgerTest.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LedgerLifecycleTest {
  static final Instant T_END = T0.plusSeconds(60);

  private static Ledger runningJob1() {
    return reserve(submitted(Ledger.empty(), keyed(2, "k")), 1, 0, 1).apply(new JobLaunched(1, leader(100), T0));
  }

  @Test
  void jobGoesFromWaitingThroughRunningToDoneAndLeavesTheLedger() {
    Ledger l = submitted(Ledger.empty(), keyed(2, "k"));
    assertEquals(JobState.WAITING, l.live().get(1L).state());
    assertTrue(l.reservations().isEmpty());

    l = reserve(l, 1, 0, 1);
    Job starting = l.live().get(1L);
    assertEquals(JobState.STARTING, starting.state());
    assertEquals(slots(0, 1), starting.gpus());
    assertNotNull(starting.startTime());
    assertEquals(Map.of(uuid(0), starting, uuid(1), starting), l.reservations());
    assertTrue(l.waiting().isEmpty());

    l = l.apply(new JobLaunched(1, leader(100), T0.plusSeconds(11)));
    Job running = l.live().get(1L);
    assertEquals(JobState.RUNNING, running.state());
    assertEquals(leader(100), running.identity());
    assertEquals(2, l.reservations().size());

    l = l.apply(new JobExited(1, 0, null, T_END));
    assertFalse(l.live().containsKey(1L));
    assertTrue(l.reservations().isEmpty());
    assertEquals(new Ledger.KeyHolder(1, JobState.DONE), l.keys().get("k"));
  }

  @Test
  void nonZeroExitFailsTheJobWithAReason() {
    Ledger before = runningJob1();
    Ledger after = before.apply(new JobExited(1, 3, null, T_END));
    assertFalse(after.live().containsKey(1L));
    assertEquals(JobState.FAILED, after.keys().get("k").state());
    Job failed = EndStates.exited(before.live().get(1L), new JobExited(1, 3, null, T_END));
    assertEquals(JobState.FAILED, failed.state());
    assertEquals(3, failed.exitCode());
    assertEquals("exited with status 3", failed.failureReason());
    assertEquals(T_END, failed.endTime());
  }

  @Test
  void signalDeathIsDescribedWithItsSignal() {
    Job j = EndStates.exited(runningJob1().live().get(1L), new JobExited(1, 137, null, T_END));
    assertEquals(JobState.FAILED, j.state());
    assertEquals("killed by signal 9 (exit code 137)", j.failureReason());
  }

  @Test
  void exitWithoutAStatusFailsTheJob() {
    Job j = EndStates.exited(runningJob1().live().get(1L), new JobExited(1, null, null, T_END));
    assertEquals(JobState.FAILED, j.state());
    assertEquals("ended without an exit status", j.failureReason());
  }

  @Test
  void givenReasonIsKeptOnFailure() {
    Job j = EndStates.exited(runningJob1().live().get(1L), new JobExited(1, 127, "cannot run the command: x", T_END));
    assertEquals("cannot run the command: x", j.failureReason());
  }

  @Test
  void exitDuringCancelEndsCancelled() {
    Ledger l = runningJob1().apply(new JobCancelRequested(1, T0));
    assertEquals(JobState.CANCELLING, l.live().get(1L).state());
    assertEquals(2, l.reservations().size(), "a cancelling job keeps its GPUs until it has exited");
    Job j = EndStates.exited(l.live().get(1L), new JobExited(1, 143, null, T_END));
    assertEquals(JobState.CANCELLED, j.state());
    assertEquals(143, j.exitCode());
    l = l.apply(new JobExited(1, 143, null, T_END));
    assertFalse(l.live().containsKey(1L));
    assertEquals(JobState.CANCELLED, l.keys().get("k").state());
  }

  @Test
  void launchReportedAfterACancelRequestStaysCancelling() {
    Ledger l = reserve(submitted(Ledger.empty(), spec(1)), 1, 0).apply(new JobCancelRequested(1, T0));
    l = l.apply(new JobLaunched(1, leader(100), T0));
    assertEquals(JobState.CANCELLING, l.live().get(1L).state());
    assertEquals(leader(100), l.live().get(1L).identity());
  }

  @Test
  void launchFailureFailsTheJobAndReleasesItsGpus() {
    Ledger l = reserve(submitted(Ledger.empty(), keyed(1, "k")), 1, 0);
    l = l.apply(new JobLaunchFailed(1, "working directory /gone no longer exists", T_END));
    assertFalse(l.live().containsKey(1L));
    assertTrue(l.reservations().isEmpty());
    assertEquals(JobState.FAILED, l.keys().get("k").state());
  }

  @Test
  void cancellingAWaitingJobRemovesItFromTheQueue() {
    Ledger l = submitted(submitted(Ledger.empty(), keyed(1, "k")), spec(1));
    l = l.apply(new JobCancelled(1, "cancelled before it started", T0));
    assertEquals(List.of(2L), l.waiting().stream().map(Job::id).toList());
    assertEquals(JobState.CANCELLED, l.keys().get("k").state());
  }

  @Test
  void requeueReleasesTheGpusAndKeepsTheJobsPlaceInTheQueue() {
    Ledger l = submitted(submitted(Ledger.empty(), spec(1)), spec(1));
    l = reserve(l, 1, 0);
    l = l.apply(new JobRequeued(1, "daemon stopped before launch", T0));
    Job j = l.live().get(1L);
    assertEquals(JobState.WAITING, j.state());
    assertTrue(j.gpus().isEmpty());
    assertNull(j.startTime());
    assertNull(j.identity());
    assertEquals("tag-1", j.tag(), "the tag survives a requeue so a late process is still recognised");
    assertTrue(l.reservations().isEmpty());
    assertEquals(List.of(1L, 2L), l.waiting().stream().map(Job::id).toList(), "oldest first");
  }

  @Test
  void orphanedJobStaysLiveAndKeepsItsGpus() {
    Ledger l = runningJob1().apply(new JobOrphaned(1, "GPU GPU-1 is gone", T_END));
    Job j = l.live().get(1L);
    assertEquals(JobState.ORPHANED, j.state());
    assertEquals("GPU GPU-1 is gone", j.failureReason());
    assertEquals(2, l.reservations().size());
  }

  @Test
  void interruptionEndsTheJobAndReleasesItsGpus() {
    Ledger l = runningJob1().apply(new JobInterrupted(1, "the machine rebooted", T_END));
    assertFalse(l.live().containsKey(1L));
    assertTrue(l.reservations().isEmpty());
    assertEquals(JobState.INTERRUPTED, l.keys().get("k").state());
  }

  @Test
  void eventForAJobThatIsNotLiveIsRejected() {
    assertThrows(IllegalStateException.class, () -> Ledger.empty().apply(new JobLaunched(9, leader(9), T0)));
    Ledger done = runningJob1().apply(new JobExited(1, 0, null, T_END));
    assertThrows(IllegalStateException.class, () -> done.apply(new JobExited(1, 0, null, T_END)));
  }

  @Test
  void replayingTheSameEventsGivesTheSameLedger() {
    List<LedgerEvent> events = List.of(
        new JobSubmitted(1, spec(1), "a", "/l/1", null, T0),
        new JobSubmitted(2, keyed(0, "k"), "b", "/l/2", 1L, T0),
        new JobReserved(1, slots(3), T0),
        new JobLaunched(1, leader(100), T0),
        new JobReserved(2, List.of(), T0));
    Ledger a = applyAll(Ledger.empty(), events);
    Ledger b = applyAll(Ledger.empty(), events);
    assertEquals(a, b);
    assertEquals(3, a.nextId());
    assertEquals(1L, a.live().get(2L).retryOf());
  }

  @Test
  void applyReturnsANewLedgerAndLeavesTheOldOneUnchanged() {
    Ledger before = submitted(Ledger.empty(), keyed(1, "k"));
    Ledger snapshot = new Ledger(before.nextId(), before.live(), before.keys(), before.queueHeld(), before.holds());
    Ledger after = reserve(before, 1, 0);
    assertNotSame(before, after);
    assertEquals(snapshot, before);
    assertEquals(JobState.WAITING, before.live().get(1L).state());
    assertTrue(before.reservations().isEmpty());
    Ledger ended = after.apply(new JobLaunchFailed(1, "x", T0));
    assertTrue(after.live().containsKey(1L));
    assertEquals(JobState.STARTING, after.keys().get("k").state());
    assertFalse(ended.live().containsKey(1L));
  }

  @Test
  void ledgerMapsCannotBeChangedFromOutside() {
    Ledger l = submitted(Ledger.empty(), keyed(0, "k"));
    assertThrows(UnsupportedOperationException.class, () -> l.live().remove(1L));
    assertThrows(UnsupportedOperationException.class, () -> l.keys().clear());
  }

  @Test
  void cancelEndsAWaitingJobAndAsksARunningOneToStop() {
    Ledger l = submitted(runningJob1(), spec(0));
    l = reserve(submitted(l, spec(1)), 3, 3);
    List<LedgerEvent> events = l.cancel(List.of(1L, 2L, 3L, 99L), T_END);
    assertEquals(3, events.size());
    assertEquals(new JobCancelRequested(1, T_END), events.get(0));
    assertInstanceOf(JobCancelled.class, events.get(1));
    assertEquals(2L, ((LedgerEvent.JobEvent) events.get(1)).jobId());
    assertEquals(new JobCancelRequested(3, T_END), events.get(2));
  }

  @Test
  void cancelOfAnUnknownOrEndedJobDecidesNothing() {
    Ledger l = runningJob1().apply(new JobExited(1, 0, null, T_END));
    assertTrue(l.cancel(List.of(1L, 42L), T_END).isEmpty());
  }

  @Test
  void cancelOfAJobAlreadyCancellingDecidesNothing() {
    Ledger l = runningJob1().apply(new JobCancelRequested(1, T0));
    assertTrue(l.cancel(List.of(1L), T_END).isEmpty());
  }

  @Test
  void cancelDecidesWithoutChangingTheLedger() {
    Ledger l = submitted(Ledger.empty(), spec(0));
    l.cancel(List.of(1L), T_END);
    assertEquals(JobState.WAITING, l.live().get(1L).state());
  }
}

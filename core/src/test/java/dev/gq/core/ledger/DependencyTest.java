package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.argv;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** --after and --after-ok: waiting, resolving, cancelling, following retries. */
class DependencyTest {
  private final Driver d = new Driver();

  private static JobSpec after(long id) {
    return argv("b").withAfter(List.of(new Dependency(id, false)));
  }

  private static JobSpec afterOk(long id) {
    return argv("b").withAfter(List.of(new Dependency(id, true)));
  }

  @Test
  void afterWaitsUntilItsJobEndsWhateverTheResult() {
    long a = d.submit(argv("a"));
    long b = d.submit(after(a));
    assertEquals("waiting for job 1 to end", d.blocked(b));
    d.run(a, 3, Duration.ofMinutes(5));
    assertNull(d.blocked(b), "a failure is an end");
    assertEquals(JobState.WAITING, d.state(b));
  }

  @Test
  void afterOkStartsOnlyAfterItsJobSucceeded() {
    long a = d.submit(argv("a"));
    long b = d.submit(afterOk(a));
    assertEquals("waiting for job 1 to succeed", d.blocked(b));
    d.start(a);
    assertEquals("waiting for job 1 to succeed", d.blocked(b));
    d.exit(a, 0);
    assertNull(d.blocked(b));
  }

  @Test
  void briefReasonNamesTheOptionAndTheJob() {
    long a = d.submit(argv("a"));
    long b = d.submit(after(a));
    long c = d.submit(afterOk(a));
    assertEquals("after " + a, d.ledger.blocked().get(b).brief());
    assertEquals("after-ok " + a, d.ledger.blocked().get(c).brief());
  }

  @Test
  void afterOkIsCancelledInTheSameWriteWhenItsJobFails() {
    long a = d.submit(argv("a"));
    long b = d.submit(afterOk(a));
    d.run(a, 1, Duration.ofMinutes(5));
    JobCancelled c = d.lastOf(JobCancelled.class).get(0);
    assertEquals(b, c.jobId());
    assertEquals("job 1, which had to succeed first (--after-ok), ended FAILED", c.reason());
    assertEquals(JobState.CANCELLED, d.state(b));
  }

  @ParameterizedTest
  @EnumSource(value = JobState.class, names = {"CANCELLED", "INTERRUPTED", "TIMEOUT"})
  void afterOkIsCancelledWhenItsJobEndsAnyOtherUnsuccessfulWay(JobState end) {
    long a = d.submit(argv("a").withTimeLimit(Duration.ofHours(1)));
    long b = d.submit(afterOk(a));
    d.start(a);
    LedgerEvent e = switch (end) {
      case CANCELLED -> new JobCancelRequested(a, d.now);
      case INTERRUPTED -> new JobInterrupted(a, "the machine rebooted", d.now);
      default -> new JobTimedOut(a, 143, "exceeded its time limit of 1h", d.now);
    };
    d.settle(List.of(e));
    if (end == JobState.CANCELLED) d.exit(a, 143);
    assertEquals(end, d.state(a));
    assertEquals(JobState.CANCELLED, d.state(b));
    assertTrue(d.lastOf(JobCancelled.class).get(0).reason().contains("job 1"));
  }

  @Test
  void cancellationRunsDownAChainAndReleasesPlainAfterDependents() {
    long a = d.submit(argv("a"));
    long b = d.submit(afterOk(a));
    long c = d.submit(afterOk(b));
    long e = d.submit(after(c));
    d.run(a, 2, Duration.ofMinutes(1));
    assertEquals(JobState.CANCELLED, d.state(b));
    assertEquals(JobState.CANCELLED, d.state(c));
    assertEquals(JobState.WAITING, d.state(e));
    assertNull(d.blocked(e), "a cancelled job has ended, which is all --after asks");
  }

  @Test
  void unknownJobIsRefusedAtSubmit() {
    assertEquals("job 99 does not exist; --after and --after-ok take the id of a submitted job", d.refusal(after(99)));
  }

  @Test
  void jobThatAlreadyEndedIsResolvedFromTheHistoryAtSubmit() {
    d.ledger = new Ledger(10, java.util.Map.of(), java.util.Map.of(), false, java.util.Map.of());
    d.facts.put(4L, new LineageFact(4, 4, 4, JobState.DONE));
    d.facts.put(5L, new LineageFact(5, 5, 5, JobState.FAILED));
    assertNull(d.blocked(d.submit(afterOk(4))));
    assertNull(d.blocked(d.submit(after(5))));
    assertTrue(d.refusal(afterOk(5)).startsWith("job 5 ended FAILED, so a job that needs it to succeed would never start"));
  }

  @Test
  void dependencyOnAnEndedJobFollowsTheNewestAttemptOfItsLineage() {
    d.ledger = new Ledger(10, java.util.Map.of(), java.util.Map.of(), false, java.util.Map.of());
    d.facts.put(4L, new LineageFact(4, 4, 7, JobState.DONE));
    long b = d.submit(afterOk(4));
    assertNull(d.blocked(b), "job 4 failed but its retry 7 succeeded");
    assertEquals(7, d.ledger.waits().get(b).get(0).jobId());
  }

  @Test
  void dependentsFollowAnAutomaticRetry() {
    long a = d.submit(argv("a").withRetries(1));
    long b = d.submit(afterOk(a));
    d.run(a, 1, Duration.ofMinutes(5));
    JobSubmitted retry = d.lastOf(JobSubmitted.class).get(0);
    assertTrue(d.lastOf(JobCancelled.class).isEmpty(), "the dependent waits for the retry");
    assertEquals("waiting for job " + retry.jobId() + " to succeed", d.blocked(b));
    d.run(retry.jobId(), 0, Duration.ofMinutes(5));
    assertNull(d.blocked(b));
  }

  @Test
  void aLiveRetryOfAnEndedJobIsWhatANewDependentWaitsFor() {
    long a = d.submit(argv("a").withRetries(1));
    d.run(a, 1, Duration.ofMinutes(5));
    long retry = d.lastOf(JobSubmitted.class).get(0).jobId();
    d.facts.put(a, new LineageFact(a, a, a, JobState.FAILED));
    long b = d.submit(afterOk(a));
    assertEquals("waiting for job " + retry + " to succeed", d.blocked(b));
  }

  @Test
  void theQueuesHoldIsShownBeforeTheDependency() {
    long a = d.submit(argv("a"));
    long b = d.submit(after(a));
    d.settle(List.of(new QueuePaused(d.now)));
    assertTrue(d.blocked(b).contains("the queue is held"));
  }

  @Test
  void replayingTheEventsRebuildsThePrerequisites() {
    long a = d.submit(argv("a").withRetries(1));
    long b = d.submit(afterOk(a));
    d.run(a, 1, Duration.ofMinutes(5));
    Ledger replayed = d.replayed();
    assertEquals(d.ledger, replayed);
    assertEquals(d.ledger.blocked().get(b), replayed.blocked().get(b));
  }

  @Test
  void aJobThatEndsWhileTheSubmitIsOnItsWayIsWaitedForAsEnded() {
    long a = d.submit(argv("a"));
    // the history's fact was read while the job ran; it ended before the decision
    var running = Map.of(a, new LineageFact(a, a, a, JobState.RUNNING));
    d.run(a, 0, Duration.ofMinutes(5));
    var r = Dependencies.resolve(d.ledger, new Dependency(a, true), running);
    assertNull(r.refusal());
    assertEquals(JobState.DONE, r.prerequisite().ended());
    // the history did not have it yet: said so, not "does not exist"
    var none = Dependencies.resolve(d.ledger, new Dependency(a, false), Map.of());
    assertEquals("job " + a + " changed state while this request was on its way; submit again", none.refusal());
  }
}

package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.argv;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Durations;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TIMEOUT: a terminal state that frees the job's key, names the limit, and neither retries nor holds. */
class TimeLimitTest {
  private final Driver d = new Driver();

  @Test
  void aTimedOutJobEndsTimeoutWithTheLimitInItsReason() {
    long a = d.submit(argv("sleep", "9999").withTimeLimit(Duration.ofHours(2)));
    d.start(a);
    String reason = EndStates.timedOut(Duration.ofHours(2));
    assertEquals("exceeded its time limit of 2h", reason);
    d.settle(List.of(new JobTimedOut(a, 143, reason, d.now)));
    assertEquals(JobState.TIMEOUT, d.state(a));
    assertFalse(d.ledger.live().containsKey(a));
    assertTrue(JobState.TIMEOUT.terminal());
    assertFalse(JobState.TIMEOUT.holdsGpus());
  }

  @Test
  void theReadSideSeesTheSameTransition() {
    var j = JobTransitions.next(null, new JobSubmitted(1, argv("x"), "t", "/l", null, d.now));
    j = JobTransitions.next(j, new JobReserved(1, List.of(), d.now));
    j = JobTransitions.next(j, new JobTimedOut(1, 137, "exceeded its time limit of 90m", d.now));
    assertEquals(JobState.TIMEOUT, j.state());
    assertEquals(137, j.exitCode());
    assertEquals("exceeded its time limit of 90m", j.failureReason());
  }

  @Test
  void aTimedOutKeyMayBeSubmittedAgain() {
    JobSpec keyed = new JobSpec(List.of("x"), "/w", Map.of(), 0, null, null, "cell");
    long a = d.submit(keyed.withTimeLimit(Duration.ofMinutes(1)));
    d.start(a);
    d.settle(List.of(new JobTimedOut(a, 143, "exceeded its time limit of 1m", d.now)));
    long again = d.submit(keyed);
    assertNotEquals(a, again);
  }

  @Test
  void timeoutsNeitherCountTowardsNorBreakAFailFastRun() {
    JobSpec cell = new JobSpec(List.of("x"), "/w", Map.of(), 0, null, "g", null).withTimeLimit(Duration.ofSeconds(5));
    long a = d.submit(cell), b = d.submit(cell), t = d.submit(cell), c = d.submit(cell);
    d.run(a, 1, Duration.ofSeconds(1));
    d.run(b, 1, Duration.ofSeconds(1));
    d.start(t);
    d.settle(List.of(new JobTimedOut(t, 143, "exceeded its time limit of 5s", d.now)));
    assertTrue(d.lastOf(GroupHeld.class).isEmpty());
    d.run(c, 1, Duration.ofSeconds(1));
    assertEquals(1, d.lastOf(GroupHeld.class).size());
  }

  @Test
  void limitsAreWrittenTheWayUsersWriteThem() {
    assertEquals("2h", Durations.format(Duration.ofHours(2)));
    assertEquals("1h30m", Durations.format(Duration.ofMinutes(90)));
    assertEquals("1d2h", Durations.format(Duration.ofHours(26)));
    assertEquals("45s", Durations.format(Duration.ofSeconds(45)));
    assertEquals("1m5s", Durations.format(Duration.ofSeconds(65)));
  }

  @Test
  void specRulesCheckRetriesLimitsAndDependencies() {
    assertTrue(SpecRules.check(argv("x").withRetries(-1)).startsWith("--retries must be between 0 and 100"));
    assertTrue(SpecRules.check(argv("x").withTimeLimit(Duration.ZERO)).startsWith("the time limit must be at least 1 second"));
    assertTrue(SpecRules.check(argv("x").withAfter(List.of(new dev.gq.core.job.Dependency(0, false)))).contains("job ids"));
    assertNull(SpecRules.check(argv("x").withRetries(3).withTimeLimit(Duration.ofHours(1))));
  }

  @Test
  void specsStoredBeforeSweepOptionsReadBackWithNone() {
    JobSpec old = new JobSpec(List.of("x"), "/w", Map.of(), 0, null, null, null, null, 0, null);
    assertEquals(List.of(), old.after());
    assertEquals(new JobSpec(List.of("x"), "/w", Map.of(), 0, null, null, null), old);
  }
}

package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartBackoffTest {
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;
  private Instant now = T0;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(now, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  /** A reading of one idle GPU: what places a job requeued from it again. */
  private boolean readPlaces() {
    var obs = new GpuObservation(new GpuReading(now, List.of(device(0)), null), Map.of());
    return decide(new Request.Observed(obs, "fake", true, nanos++)).events().stream().anyMatch(JobReserved.class::isInstance);
  }

  private void failToStart() {
    var d = decide(new Request.LaunchDeferred(1, new LaunchProblem(LaunchProblem.Cause.LEASE_TAKEN, "cannot make the lease file")));
    assertTrue(d.events().stream().anyMatch(JobRequeued.class::isInstance), d.events().toString());
  }

  @Test
  void aJobThatKeepsFailingToStartWaitsLongerEachTimeInsteadOfCyclingAtOnce() {
    decide(new Request.Reconciled(Map.of(), 0));
    assertFalse(readPlaces());
    decide(new Request.Submit(spec(1)));
    for (int i = 0; i < StartBackoff.FREE_TRIES; i++) {
      failToStart();
      assertTrue(readPlaces(), "failure " + (i + 1) + " is placed again on the next reading");
    }
    failToStart();
    assertFalse(readPlaces(), "the fourth failure in a row waits");
    var why = Reservations.plan(l, s, new DecisionContext(now, nanos, () -> "t", id -> "", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64)).waitReasons().get(1L);
    assertEquals("failed to start 4 times in a row (last: cannot make the lease file); tries again in 1s", why.text());
    now = now.plusMillis(999);
    assertFalse(readPlaces());
    now = now.plusMillis(1);
    assertTrue(readPlaces(), "placed once its second has passed");
    failToStart();
    now = now.plusMillis(1999);
    assertFalse(readPlaces(), "the fifth waits 2 s");
    now = now.plusMillis(1);
    assertTrue(readPlaces());
  }

  @Test
  void aLaunchEndsTheRunAndTheWaitIsBounded() {
    decide(new Request.Reconciled(Map.of(), 0));
    readPlaces();
    decide(new Request.Submit(spec(1)));
    for (int i = 0; i < StartBackoff.FREE_TRIES; i++) {
      failToStart();
      readPlaces();
    }
    decide(new Request.Launched(1, leader(100)));
    assertTrue(s.backoff().runs().isEmpty(), "a launched job is out of its run");
    assertEquals(Duration.ZERO, StartBackoff.wait(3));
    assertEquals(Duration.ofSeconds(1), StartBackoff.wait(4));
    assertEquals(Duration.ofSeconds(256), StartBackoff.wait(12));
    assertEquals(StartBackoff.MAX_WAIT, StartBackoff.wait(13));
    assertEquals(StartBackoff.MAX_WAIT, StartBackoff.wait(Integer.MAX_VALUE));
  }

  @Test
  void aCancelledJobLeavesItsRun() {
    decide(new Request.Reconciled(Map.of(), 0));
    readPlaces();
    decide(new Request.Submit(spec(1)));
    failToStart();
    assertEquals(1, s.backoff().runs().get(1L).failures());
    decide(new Request.Cancel(List.of(1L)));
    assertTrue(s.backoff().runs().isEmpty());
  }
}

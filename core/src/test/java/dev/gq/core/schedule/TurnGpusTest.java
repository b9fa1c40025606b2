package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.Demand;
import dev.gq.core.fair.FairView;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which free GPUs the fair turn gives a job, and the wait reasons that name the GPUs waiting for another user's turn. */
class TurnGpusTest {
  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");
  private static final Map<String, Object> POLICY = Map.of("max_gpus_per_user", 2, "fair_turn", "30s");
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private final Instant now = T0;
  private FairView fair = FairView.NONE;

  private DecisionContext context() {
    return new DecisionContext(now, 1, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64,
        1024, DecisionContext.IDLE_AFTER, fair);
  }

  private <R> Decided<R> decide(Request<R> r) {
    Decided<R> d = Decider.decide(l, s, r, context());
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  /** Alice alone on {@code n} GPUs holds GPUs 0 and 1 with two jobs; then carol waits for {@code wanted} GPUs. */
  private void aliceHoldsTwoThenCarolWaits(int n, int wanted, Map<Integer, Instant> freeSince) {
    decide(new Request.Reconciled(Map.of(), 0));
    List<DeviceReading> devices = new ArrayList<>();
    Map<String, GpuLease> leases = new HashMap<>();
    for (int i = 0; i < n; i++) {
      devices.add(device(i));
      leases.put(uuid(i), GpuLease.FREE);
    }
    decide(new Request.Observed(new GpuObservation(new GpuReading(now, devices, null), Map.of(), leases, ALICE), "fake", true, 1));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    Map<String, Instant> free = new HashMap<>();
    freeSince.forEach((i, at) -> free.put(uuid(i), at));
    Demand carol = new Demand("carol", 1003, 4243, 7, "boot", wanted, wanted, 1, T0.minusSeconds(60), 0, T0);
    fair = new FairView(new PolicyReading(Policy.from(POLICY, "/etc/gq/policy.toml"), null), List.of(carol), Map.of(), free);
  }

  @Test
  void aJobTakesAFreeGpuWhoseTurnHasPassedRatherThanOneStillInAnotherUsersTurn() {
    aliceHoldsTwoThenCarolWaits(4, 2, Map.of(2, now, 3, now.minusSeconds(120)));
    var d = decide(new Request.Submit(spec(1)));
    JobReserved r = d.events().stream().filter(e -> e instanceof JobReserved).map(JobReserved.class::cast).findFirst().orElseThrow(
        () -> new AssertionError("GPU 3 has been free for 2 minutes: " + Reservations.plan(l, s, context()).waitReasons()));
    assertEquals(3, r.gpus().get(0).index());
  }

  @Test
  void aJobBehindOneWaitingForTheTurnIsToldTheTurnAndTheFreeGpuItConcerns() {
    aliceHoldsTwoThenCarolWaits(3, 1, Map.of(2, now));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    var reasons = Reservations.plan(l, s, context()).waitReasons();
    for (long id : List.of(3L, 4L)) {
      assertEquals("fair share", reasons.get(id).brief(), reasons.get(id).text());
      assertTrue(reasons.get(id).text().endsWith("; GPU 2 is free and waits 30s more for another user's turn"), reasons.get(id).text());
    }
  }
}

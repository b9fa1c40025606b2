package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Health and idleness as the Scheduler's decision sees them on each reading. */
class GpuSignalsDecisionTest {
  private static final GpuHealth XID_79 = new GpuHealth(List.of(79), null, false, false, false);
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;
  private Instant now = T0;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(now, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64, dev.gq.core.alloc.PlanRules.HEADROOM_MIB, Duration.ofMinutes(30));
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  private Decided<Void> read(DeviceReading... devices) {
    var obs = new GpuObservation(new GpuReading(now, List.of(devices), null), Map.of());
    return decide(new Request.Observed(obs, "fake", true, nanos++));
  }

  private static DeviceReading gpu(int index, Integer util, GpuHealth health) {
    DeviceReading d = device(index);
    return new DeviceReading(d.index(), d.uuid(), d.name(), d.totalBytes(), d.usedBytes(), d.processes(), null,
        new GpuFigures(util, null, null, null, null), health);
  }

  @Test
  void aGpuFoundUnwellIsDrainedInTheWriteThatWouldHaveHandedItOut() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(device(0, 7001), device(1, 7002));  // both in use by outside processes: the jobs wait
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    assertTrue(l.reservations().isEmpty());
    var d = read(gpu(0, 0, XID_79), gpu(1, 0, GpuHealth.NONE));
    assertInstanceOf(GpuDrained.class, d.events().get(0), "the drain comes first: " + d.events());
    assertEquals("unwell: Xid 79: fell off the bus", ((GpuDrained) d.events().get(0)).reason());
    var reserved = d.events().stream().filter(JobReserved.class::isInstance).map(JobReserved.class::cast).toList();
    assertEquals(1, reserved.size());
    assertEquals(uuid(1), reserved.get(0).gpus().get(0).uuid());
    assertEquals(GpuState.DRAINED, s.gpus().classified(l).get(0).state());
  }

  @Test
  void aJobOnAGpuFoundUnwellKeepsRunning() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(gpu(0, 50, GpuHealth.NONE));
    decide(new Request.Submit(spec(1)));
    var d = read(gpu(0, 50, XID_79));
    assertEquals(List.of(GpuDrained.class), d.events().stream().map(Object::getClass).toList());
    assertEquals(JobState.STARTING, l.live().get(1L).state());
    assertNull(read(gpu(0, 50, XID_79)).events().stream().filter(GpuDrained.class::isInstance).findAny().orElse(null),
        "drained once");
  }

  @Test
  void aRunningJobWhoseGpusShowNothingIsNotedIdleOnce() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(gpu(0, 0, GpuHealth.NONE));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    read(gpu(0, 0, GpuHealth.NONE));
    now = now.plus(Duration.ofMinutes(31));
    var d = read(gpu(0, 0, GpuHealth.NONE));
    assertEquals(List.of(new JobIdleNoted(1, T0, now)), d.events());
    assertEquals(Map.of(1L, T0), s.idle().idle(now, Duration.ofMinutes(30)));
    now = now.plus(Duration.ofMinutes(10));
    assertEquals(List.of(), read(gpu(0, 0, GpuHealth.NONE)).events());
    assertEquals(JobState.RUNNING, l.live().get(1L).state(), "gq never stops an idle job");
  }

  @Test
  void theReadingAfterAJobsEndDrainsAGpuItShowsUnwellEvenWhenTheEndWasToldBefore() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(gpu(0, 0, GpuHealth.NONE), gpu(1, 0, GpuHealth.NONE));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    var after = new GpuObservation(new GpuReading(now, List.of(gpu(0, 0, XID_79), gpu(1, 0, GpuHealth.NONE)), null), Map.of());
    var d = decide(new Request.Ended(1, EndSeen.exited(0), nanos++, after, nanos++));
    assertTrue(d.events().contains(new GpuDrained(uuid(0), "unwell: Xid 79: fell off the bus", now)), d.events().toString());
    var again = new GpuObservation(new GpuReading(now, List.of(gpu(0, 0, GpuHealth.NONE), gpu(1, 0, XID_79)), null), Map.of());
    var twice = decide(new Request.Ended(1, EndSeen.exited(0), nanos++, again, nanos++));
    assertEquals(List.of(new GpuDrained(uuid(1), "unwell: Xid 79: fell off the bus", now)), twice.events());
  }

  @Test
  void anIdleStretchSurvivesAReconciliation() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(gpu(0, 0, GpuHealth.NONE));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    read(gpu(0, 0, GpuHealth.NONE));
    now = now.plus(Duration.ofMinutes(31));
    assertEquals(1, read(gpu(0, 0, GpuHealth.NONE)).events().size());
    decide(new Request.Reconciled(Map.of(), 0));
    assertEquals(Map.of(1L, T0), s.idle().idle(now, Duration.ofMinutes(30)));
    now = now.plus(Duration.ofMinutes(1));
    assertEquals(List.of(), read(gpu(0, 0, GpuHealth.NONE)).events(), "not told again");
  }
}

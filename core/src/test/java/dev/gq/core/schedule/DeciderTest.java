package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.recovery.RecoveryFacts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeciderTest {
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;
  private java.time.Instant now = T0;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(now, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  private Decided<Void> read(long taken, DeviceReading... devices) {
    var obs = new GpuObservation(new GpuReading(T0, List.of(devices), null), Map.of());
    return decide(new Request.Observed(obs, "fake", true, taken));
  }

  private static DeviceReading[] idle(int n) {
    List<DeviceReading> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(device(i));
    return out.toArray(DeviceReading[]::new);
  }

  private void ready() {
    decide(new Request.Reconciled(Map.of(), 0));
  }

  @Test
  void nothingIsPlacedBeforeStartUpReconciliationEnds() {
    read(1, idle(1));
    var d = decide(new Request.Submit(spec(1)));
    assertEquals(1, d.events().size(), "only the submission");
    var r = decide(new Request.Reconciled(Map.of(), 0));
    assertTrue(r.readied());
    assertInstanceOf(JobReserved.class, r.events().get(r.events().size() - 1));
  }

  @Test
  void aSubmitIsPlacedInItsOwnWrite() {
    ready();
    read(1, idle(2));
    var d = decide(new Request.Submit(spec(2)));
    assertEquals(List.of(JobSubmitted.class, JobReserved.class), d.events().stream().map(Object::getClass).toList());
    assertEquals(1L, d.answer().jobId());
  }

  @Test
  void aLaunchInAGroupUnderFailFastPlacesTheJobItsBudgetNowAllows() {
    ready();
    read(1, idle(8));
    var grouped = new dev.gq.core.job.JobSpec(List.of("python", "train.py"), "/home/u", Map.of(), 1, null, "g", null);
    for (int i = 0; i < 4; i++) decide(new Request.Submit(grouped));
    assertEquals(JobState.WAITING, l.live().get(4L).state(), "three open jobs use the group's fail-fast count of 3");
    var d = decide(new Request.Launched(1, leader(100)));
    assertEquals(List.of(JobLaunched.class, JobReserved.class), d.events().stream().map(Object::getClass).toList(),
        "job 1 is no longer open: job 4 starts in the launch's write");
    assertEquals(4L, ((JobReserved) d.events().get(1)).jobId());
  }

  @Test
  void aLaunchOfAJobInNoGroupMakesNoPlanTheNextReadingDoes() {
    ready();
    read(1, idle(2));
    decide(new Request.Submit(spec(1)));
    var later = new dev.gq.core.job.JobSpec(List.of("python", "train.py"), "/home/u", Map.of(), 1, null, null, null,
        List.of(), 0, null, 0, T0.plusSeconds(10));
    decide(new Request.Submit(later));
    assertEquals(JobState.WAITING, l.live().get(2L).state(), "may not begin yet");
    now = T0.plusSeconds(20);
    var d = decide(new Request.Launched(1, leader(100)));
    assertEquals(List.of(JobLaunched.class), d.events().stream().map(Object::getClass).toList(),
        "a launch frees nothing: no plan is made");
    var r = read(2, idle(2));
    assertTrue(r.events().stream().anyMatch(e -> e instanceof JobReserved jr && jr.jobId() == 2), "the next reading places it");
  }

  @Test
  void aRefusalWritesNothing() {
    ready();
    read(1, idle(1));
    var d = decide(new Request.Submit(spec(3)));
    assertTrue(d.refused(), "3 GPUs on a machine with 1");
    assertTrue(d.events().isEmpty());
    assertSame(s, d.next());
  }

  @Test
  void anEndIsStampedWhenItsRunnerFoundItNotWhenTheDelayedWriteDecidesIt() {
    ready();
    read(1, idle(1));
    decide(new Request.Submit(spec(0)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(0)));
    decide(new Request.Launched(2, leader(200)));
    now = T0.plusSeconds(19); // the journal could not be written for 16 s
    var ended = decide(new Request.Ended(1, EndSeen.exited(5), 50, null, 0, T0.plusSeconds(3)));
    assertEquals(T0.plusSeconds(3), ((JobExited) ended.events().get(0)).at());
    var future = decide(new Request.Ended(2, EndSeen.exited(0), 51, null, 0, T0.plusSeconds(60)));
    assertEquals(T0.plusSeconds(19), ((JobExited) future.events().get(0)).at(), "never later than the decision");
  }

  @Test
  void aFreedGpuWaitsForAReadingTakenAfterTheEndAndOneIsAskedFor() {
    ready();
    read(1, idle(1));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    var ended = decide(new Request.Ended(1, EndSeen.exited(0), 50, null, 0));
    assertEquals(List.of(JobExited.class), ended.events().stream().map(Object::getClass).toList(), "job 2 waits for a reading");
    assertTrue(ended.readGpus());
    assertTrue(read(40, idle(1)).events().isEmpty(), "a reading from before the end is not used");
    var after = read(60, idle(1));
    assertEquals(List.of(JobReserved.class), after.events().stream().map(Object::getClass).toList());
  }

  @Test
  void theRunnersReadingAfterTheEndHandsTheGpuOnInTheSameWrite() {
    ready();
    read(1, idle(1));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    var obs = new GpuObservation(new GpuReading(T0, List.of(device(0)), null), Map.of());
    var ended = decide(new Request.Ended(1, EndSeen.exited(0), 50, obs, 51));
    assertEquals(List.of(JobExited.class, JobReserved.class), ended.events().stream().map(Object::getClass).toList());
    assertFalse(ended.readGpus());
  }

  @Test
  void aJobEndingCountsAgainstItsGroupUntilItsEndIsRecorded() {
    ready();
    read(1, idle(1));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Ending(1, true));
    assertEquals(java.util.Set.of(1L), s.ending());
    decide(new Request.Ended(1, EndSeen.exited(1), 60, null, 0));
    assertTrue(s.ending().isEmpty());
  }

  @Test
  void aGpuThatComesBackBringsItsOrphanedJobToTheReconcilerOnce() {
    ready();
    read(1, idle(1));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Reconciled(Map.of(1L, new RecoveryFacts(BOOT, Optional.empty(), true, Optional.empty(), Set.of())), 0));
    assertEquals(JobState.ORPHANED, l.live().get(1L).state());
    var back = read(5, device(0, 100));
    assertNotNull(back.reconcile());
    assertEquals(java.util.Set.of(1L), back.reconcile().live().keySet());
    assertNull(read(6, device(0, 100)).reconcile(), "not again while one runs");
  }

  @Test
  void theFirstReconciliationSkipsIdsPastTheFilesOnDisk() {
    var d = decide(new Request.Reconciled(Map.of(), 41));
    assertInstanceOf(JobIdsSkipped.class, d.events().get(0));
    assertEquals(42, l.nextId());
  }
}

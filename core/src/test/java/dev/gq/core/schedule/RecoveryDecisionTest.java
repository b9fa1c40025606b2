package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.end.DiskFull;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.recovery.RecoveryFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the reconciler found goes through the decision function to the verdict of the recovery rules:
 * the events, their reasons (with a full disk's note) and the jobs a runner watches again.
 */
class RecoveryDecisionTest {
  private static final Instant NOW = T0.plusSeconds(60);
  private static final String FULL = "the disk holding /data/run is full (512 KiB free)";
  /** The disk that note is of: what a runner or the reconciler reports. */
  private static final DiskFull DISK = new DiskFull("/data/run", 512 * 1024);
  private Ledger l;
  private SchedulerState s = SchedulerState.initial();

  private void jobs(Job... jobs) {
    TreeMap<Long, Job> live = new TreeMap<>();
    for (Job j : jobs) live.put(j.id(), j);
    l = new Ledger(10, live, Map.of(), false, Map.of());
  }

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(NOW, 1, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  /** What the reconciler finds of a job on this boot, with its GPU 0 present. */
  private static RecoveryFacts found(boolean alive, Optional<ExitRecord> exit, DiskFull diskFull) {
    return new RecoveryFacts(BOOT, exit, alive, Optional.empty(), Set.of(uuid(0)), diskFull);
  }

  private static RecoveryFacts dead(DiskFull diskFull) {
    return found(false, Optional.empty(), diskFull);
  }

  private Decided<Void> drifted(long id, JobState seen, RecoveryFacts f, Set<Long> watched) {
    return decide(new Request.Drifted(Map.of(id, seen), Map.of(id, f), watched));
  }

  @Test
  void aJobFoundDeadAtStartUpIsInterruptedAsTheDaemonWasDown() {
    jobs(holding(1, JobState.RUNNING, 0));
    var d = decide(new Request.Reconciled(Map.of(1L, dead(null)), 0));
    assertEquals(List.of(new JobInterrupted(1, "the job's processes ended while the daemon was down and left no exit status",
        NOW)), d.events());
    assertTrue(d.readied());
    assertFalse(d.watch().get(1L).watch());
  }

  @Test
  void aFullDiskIsNamedInEveryInterruptionItMayExplain() {
    jobs(holding(1, JobState.RUNNING, 0), holding(2, JobState.RUNNING, 0));
    var rebooted = new RecoveryFacts("boot-2", Optional.empty(), false, Optional.empty(), Set.of(uuid(0)), DISK);
    var d = decide(new Request.Reconciled(new TreeMap<>(Map.of(1L, dead(DISK), 2L, rebooted)), 0));
    assertEquals(List.of(
        new JobInterrupted(1, "the job's processes ended while the daemon was down and left no exit status; " + FULL, NOW),
        new JobInterrupted(2, "the machine rebooted while the job was RUNNING; " + FULL, NOW)), d.events());
  }

  @Test
  void anExitRecordEndsItWithItsStatusAndNoDiskNote() {
    jobs(holding(1, JobState.RUNNING, 0));
    var d = decide(new Request.Reconciled(Map.of(1L, found(false, Optional.of(ExitRecord.exited(3)), DISK)), 0));
    assertEquals(List.of(new JobExited(1, 3, null, NOW)), d.events());
  }

  @Test
  void aJobStillAliveGetsARunnerAndNoEvent() {
    jobs(holding(1, JobState.RUNNING, 0));
    var d = decide(new Request.Reconciled(Map.of(1L, found(true, Optional.empty(), null)), 0));
    assertTrue(d.events().isEmpty());
    assertTrue(d.watch().get(1L).watch());
  }

  @Test
  void aJobThatEndedSinceItWasCheckedGetsNoVerdict() {
    jobs(holding(1, JobState.RUNNING, 0));
    var d = decide(new Request.Reconciled(Map.of(1L, dead(null), 9L, dead(null)), 0));
    assertEquals(List.of(1L), d.events().stream().map(e -> ((JobInterrupted) e).jobId()).toList());
    assertFalse(d.watch().containsKey(9L));
  }

  @Test
  void aGpuGoneFromAGoodReadingOrphansTheJob() {
    jobs(holding(1, JobState.RUNNING, 0));
    var gone = new RecoveryFacts(BOOT, Optional.empty(), true, Optional.empty(), Set.of(), null);
    var d = decide(new Request.Reconciled(Map.of(1L, gone), 0));
    assertEquals(List.of(new JobOrphaned(1, "GPU " + uuid(0) + " it holds is no longer present", NOW)), d.events());
  }

  @Test
  void thePeriodicPassInterruptsAJobNoRunnerWatchedWithItsOwnReason() {
    jobs(holding(1, JobState.RUNNING, 0));
    decide(new Request.Reconciled(Map.of(), 0));
    var d = drifted(1, JobState.RUNNING, dead(DISK), Set.of());
    assertEquals(List.of(new JobInterrupted(1,
        "the job's processes ended while no runner watched them and left no exit status; " + FULL, NOW)), d.events());
  }

  @Test
  void thePeriodicPassLeavesAWatchedJobToItsRunner() {
    jobs(holding(1, JobState.RUNNING, 0));
    decide(new Request.Reconciled(Map.of(), 0));
    assertTrue(drifted(1, JobState.RUNNING, dead(null), Set.of(1L)).events().isEmpty());
  }

  @Test
  void thePeriodicPassSkipsAJobThatChangedSinceItLooked() {
    jobs(holding(1, JobState.CANCELLING, 0));
    decide(new Request.Reconciled(Map.of(), 0));
    var d = drifted(1, JobState.RUNNING, dead(null), Set.of());
    assertTrue(d.events().isEmpty());
    assertTrue(d.watch().isEmpty());
  }

  @Test
  void aWatchedOrphanWhoseGpusCameBackRecovers() {
    jobs(holding(1, JobState.ORPHANED, 0));
    decide(new Request.Reconciled(Map.of(), 0));
    var d = drifted(1, JobState.ORPHANED, found(true, Optional.empty(), null), Set.of(1L));
    assertEquals(List.of(new JobRecovered(1, NOW)), d.events());
  }

  @Test
  void nothingThePeriodicPassFoundIsDecidedBeforeStartUpIsOver() {
    jobs(holding(1, JobState.RUNNING, 0));
    assertTrue(drifted(1, JobState.RUNNING, dead(null), Set.of()).events().isEmpty());
    assertEquals(JobState.RUNNING, l.live().get(1L).state());
  }
}

package dev.gq.core.recovery;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecoveryTest {
  static final Instant NOW = T0.plusSeconds(3600);
  static final Set<String> ALL_GPUS = Set.of(uuid(0), uuid(1), uuid(2), uuid(3));
  static final Set<String> GPU_1_GONE = Set.of(uuid(0), uuid(2), uuid(3));

  private static RecoveryFacts facts(String boot, ExitRecord exit, boolean alive, ProcessIdentity tagged, Set<String> present) {
    return new RecoveryFacts(boot, Optional.ofNullable(exit), alive, Optional.ofNullable(tagged), present);
  }

  private static RecoveryFacts alive() {
    return facts(BOOT, null, true, null, ALL_GPUS);
  }

  private static RecoveryFacts dead() {
    return facts(BOOT, null, false, null, ALL_GPUS);
  }

  private static LedgerEvent only(Recovery.Verdict v) {
    assertEquals(1, v.events().size(), v.events().toString());
    return v.events().get(0);
  }

  @Test
  void waitingJobIsLeftAsItIs() {
    var v = Recovery.decide(waiting(1, 1), facts("other-boot", ExitRecord.exited(0), false, null, Set.of()), NOW);
    assertTrue(v.events().isEmpty());
    assertFalse(v.watch());
  }

  @Test
  void rebootInterruptsTheJobBeforeAnyOtherRule() {
    Job j = holding(1, JobState.RUNNING, 1);
    var f = facts("boot-2", ExitRecord.exited(0), true, leader(5), GPU_1_GONE);
    var v = Recovery.decide(j, f, NOW);
    JobInterrupted e = assertInstanceOf(JobInterrupted.class, only(v));
    assertTrue(e.reason().contains("rebooted"), e.reason());
    assertEquals(NOW, e.at());
    assertFalse(v.watch());
  }

  @Test
  void rebootInterruptsAnOrphanedJobAndSoFreesItsGpus() {
    assertInstanceOf(JobInterrupted.class, only(Recovery.decide(holding(1, JobState.ORPHANED, 1), facts("boot-2", null, false, null, null), NOW)));
  }

  @Test
  void exitRecordWithSurvivingProcessesKeepsWatchingSoItsGpusStayHeld() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 0), facts(BOOT, ExitRecord.exited(3), true, null, ALL_GPUS), NOW);
    assertTrue(v.events().isEmpty());
    assertTrue(v.watch());
  }

  @Test
  void exitRecordEndsAJobWithNothingLeft() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 0), facts(BOOT, ExitRecord.exited(3), false, null, ALL_GPUS), NOW);
    JobExited e = assertInstanceOf(JobExited.class, only(v));
    assertEquals(3, e.exitCode());
    assertNull(e.reason());
    assertFalse(v.watch());
  }

  @Test
  void aJobThatEndedWhileTheDaemonWasDownEndsWhenItsRecordWasWrittenNotWhenTheDaemonLooked() {
    Job j = holding(1, JobState.RUNNING, 0);
    Instant written = NOW.minusSeconds(8);
    var v = Recovery.decide(j, facts(BOOT, ExitRecord.exited(3).writtenAt(written), false, null, ALL_GPUS), NOW);
    JobExited e = assertInstanceOf(JobExited.class, only(v));
    assertEquals(written, e.at());
    assertEquals(3, e.exitCode());
  }

  @Test
  void aRecordTimeOutsideTheJobsTimeIsKeptWithinIt() {
    Job j = holding(1, JobState.RUNNING, 0);
    var future = Recovery.decide(j, facts(BOOT, ExitRecord.exited(0).writtenAt(NOW.plusSeconds(60)), false, null, ALL_GPUS), NOW);
    assertEquals(NOW, assertInstanceOf(JobExited.class, only(future)).at(), "a clock set back: now");
    var early = Recovery.decide(j, facts(BOOT, ExitRecord.exited(0).writtenAt(j.startTime().minusSeconds(60)), false, null,
        ALL_GPUS), NOW);
    assertEquals(j.startTime(), assertInstanceOf(JobExited.class, only(early)).at(), "never before it started");
    var unknown = Recovery.decide(j, facts(BOOT, ExitRecord.exited(0), false, null, ALL_GPUS), NOW);
    assertEquals(NOW, assertInstanceOf(JobExited.class, only(unknown)).at());
  }

  @Test
  void exitRecordBeatsAMissingGpu() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 1), facts(BOOT, ExitRecord.exited(0), false, null, GPU_1_GONE), NOW);
    assertEquals(0, assertInstanceOf(JobExited.class, only(v)).exitCode());
  }

  @Test
  void signalInTheExitRecordBecomesItsShellExitCode() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 0), facts(BOOT, ExitRecord.signalled(9), false, null, ALL_GPUS), NOW);
    assertEquals(137, assertInstanceOf(JobExited.class, only(v)).exitCode());
  }

  @Test
  void commandThatCouldNotStartFailsWithTheShimsText() {
    var rec = ExitRecord.execFailed("cannot run 'trian.py': No such file or directory");
    JobExited e = assertInstanceOf(JobExited.class, only(Recovery.decide(holding(1, JobState.RUNNING, 0), facts(BOOT, rec, false, null, ALL_GPUS), NOW)));
    assertEquals(127, e.exitCode());
    assertEquals("cannot run 'trian.py': No such file or directory", e.reason());
  }

  @Test
  void startingJobThatLeftAnExitRecordAndNothingElseEndsWithIt() {
    var v = Recovery.decide(holding(1, JobState.STARTING, 0), facts(BOOT, ExitRecord.exited(0), false, null, ALL_GPUS), NOW);
    assertEquals(0, assertInstanceOf(JobExited.class, only(v)).exitCode());
  }

  @Test
  void startingJobClosedFromItsExitRecordShowsThePidTheRecordNames() {
    Job j = holding(1, JobState.STARTING, 0);
    var v = Recovery.decide(j, facts(BOOT, ExitRecord.exited(0).withPid(4321L), false, null, ALL_GPUS), NOW);
    JobExited e = assertInstanceOf(JobExited.class, only(v));
    assertEquals(4321L, e.pid());

    Ledger l = Ledger.empty()
        .apply(new JobSubmitted(1, j.spec(), j.tag(), j.logPath(), null, T0))
        .apply(new JobReserved(1, j.gpus(), T0));
    Job before = l.live().get(1L);
    Job ended = dev.gq.core.ledger.JobTransitions.next(before, e);
    assertEquals(JobState.DONE, ended.state());
    assertNull(ended.identity(), "a reported pid is never an identity: nothing may signal it");
    assertEquals(4321L, ended.pid());
    assertEquals(4321L, ended.withoutCommand().withState(JobState.DONE).pid(), "copies keep it");
  }

  @Test
  void aLaunchedJobKeepsItsIdentitysPidWhateverTheRecordSays() {
    Job j = holding(1, JobState.RUNNING, 0);
    var v = Recovery.decide(j, facts(BOOT, ExitRecord.exited(0).withPid(4321L), false, null, ALL_GPUS), NOW);
    JobExited e = assertInstanceOf(JobExited.class, only(v));
    assertNull(e.pid(), "the launch recorded the verified identity");
    assertEquals(100L, dev.gq.core.ledger.JobTransitions.next(j, new JobExited(1, 0, null, NOW, 4321L)).pid());
  }

  @Test
  void anOldRecordWithoutAPidLeavesTheJobWithoutOne() {
    var v = Recovery.decide(holding(1, JobState.STARTING, 0), facts(BOOT, ExitRecord.exited(0), false, null, ALL_GPUS), NOW);
    JobExited e = assertInstanceOf(JobExited.class, only(v));
    assertNull(e.pid());
    assertNull(dev.gq.core.ledger.JobTransitions.next(holding(1, JobState.STARTING, 0), e).pid());
  }

  @Test
  void startingJobWhoseShimWroteARecordButWhoseChildStillRunsKeepsItsGpus() {
    var v = Recovery.decide(holding(1, JobState.STARTING, 0), facts(BOOT, ExitRecord.exited(0), true, leader(7), ALL_GPUS), NOW);
    assertEquals(leader(7), assertInstanceOf(JobLaunched.class, only(v)).identity());
    assertTrue(v.watch(), "the tagged process is watched; the record is read when it ends");
  }

  @Test
  void startingJobWithoutLaunchAdoptsTheProcessesCarryingItsTag() {
    ProcessIdentity found = new ProcessIdentity(4321, 4321, 4321, 99, BOOT);
    var v = Recovery.decide(holding(1, JobState.STARTING, 1), facts(BOOT, null, false, found, GPU_1_GONE), NOW);
    JobLaunched e = assertInstanceOf(JobLaunched.class, only(v));
    assertEquals(found, e.identity());
    assertTrue(v.watch());
  }

  @Test
  void startingJobWithoutLaunchOrTaggedProcessIsRequeuedAndReleasesItsGpus() {
    Job j = holding(1, JobState.STARTING, 0);
    var v = Recovery.decide(j, facts(BOOT, null, false, null, ALL_GPUS), NOW);
    assertInstanceOf(JobRequeued.class, only(v));
    assertFalse(v.watch());

    Ledger l = Ledger.empty()
        .apply(new JobSubmitted(1, j.spec(), j.tag(), j.logPath(), null, T0))
        .apply(new JobReserved(1, j.gpus(), T0))
        .apply(only(v));
    assertEquals(JobState.WAITING, l.live().get(1L).state());
    assertTrue(l.reservations().isEmpty());
  }

  @Test
  void missingGpuOrphansADeadJobOnAGoodReading() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 0, 1), facts(BOOT, null, false, null, GPU_1_GONE), NOW);
    JobOrphaned e = assertInstanceOf(JobOrphaned.class, only(v));
    assertTrue(e.reason().contains(uuid(1)), e.reason());
    assertFalse(v.watch());
  }

  @Test
  void liveJobWhoseGpuVanishedIsOrphanedAndStillWatched() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 1), facts(BOOT, null, true, null, GPU_1_GONE), NOW);
    assertInstanceOf(JobOrphaned.class, only(v));
    assertTrue(v.watch());
  }

  @Test
  void failedGpuReadingConcludesNothingAboutMissingGpus() {
    var alive = Recovery.decide(holding(1, JobState.RUNNING, 1), facts(BOOT, null, true, null, null), NOW);
    assertTrue(alive.events().isEmpty());
    assertTrue(alive.watch());
    var dead = Recovery.decide(holding(1, JobState.RUNNING, 1), facts(BOOT, null, false, null, null), NOW);
    assertInstanceOf(JobInterrupted.class, only(dead));
  }

  @Test
  void alreadyOrphanedJobIsNotOrphanedAgain() {
    var v = Recovery.decide(holding(1, JobState.ORPHANED, 1), facts(BOOT, null, true, null, GPU_1_GONE), NOW);
    assertTrue(v.events().isEmpty());
    assertTrue(v.watch());
  }

  @Test
  void liveJobIsReattachedWithNoEvents() {
    for (JobState s : new JobState[] {JobState.RUNNING, JobState.CANCELLING}) {
      var v = Recovery.decide(holding(1, s, 0), alive(), NOW);
      assertTrue(v.events().isEmpty(), s.toString());
      assertTrue(v.watch(), s.toString());
    }
  }

  @Test
  void cpuOnlyJobIsReattachedWhateverTheGpus() {
    var v = Recovery.decide(holding(1, JobState.RUNNING), facts(BOOT, null, true, null, Set.of()), NOW);
    assertTrue(v.events().isEmpty());
    assertTrue(v.watch());
  }

  @Test
  void deadJobWithoutExitRecordIsInterrupted() {
    var v = Recovery.decide(holding(1, JobState.RUNNING, 0), dead(), NOW);
    JobInterrupted e = assertInstanceOf(JobInterrupted.class, only(v));
    assertTrue(e.reason().contains("no exit status"), e.reason());
    assertFalse(v.watch());
  }

  @Test
  void cancellingJobThatExitedWhileDownEndsCancelled() {
    Job j = holding(1, JobState.RUNNING, 0);
    var v = Recovery.decide(j.withState(JobState.CANCELLING), facts(BOOT, ExitRecord.signalled(15), false, null, ALL_GPUS), NOW);
    Ledger l = Ledger.empty()
        .apply(new JobSubmitted(1, keyed(1, "k"), j.tag(), j.logPath(), null, T0))
        .apply(new JobReserved(1, j.gpus(), T0))
        .apply(new JobLaunched(1, j.identity(), T0))
        .apply(new JobCancelRequested(1, T0))
        .apply(only(v));
    assertEquals(JobState.CANCELLED, l.keys().get("k").state());
    assertTrue(l.reservations().isEmpty());
  }
}

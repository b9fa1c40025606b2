package dev.gq.core.end;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.Preemption;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The words of a job's end, from what its runner saw: a full disk, a preemption, a command that could not run. */
class EndReasonsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final String FULL = "the disk holding /data/run is full (512 KiB free)";
  /** The disk that note is of: what a runner or the reconciler reports. */
  private static final DiskFull DISK = new DiskFull("/data/run", 512 * 1024);
  private static final Preemption TERM = new Preemption(15, false, Duration.ofMinutes(1), null, false, T);

  private static EndSeen seen(ExitRecord record, Integer shim, DiskFull full) {
    return new EndSeen(record, shim, full, false, null, null);
  }

  @Test
  void anExitItsStatusSaysAllOfNeedsNoReason() {
    assertNull(EndReasons.reason(EndSeen.exited(3)));
    assertNull(EndReasons.reason(EndSeen.exited(null)));
    assertEquals(3, EndSeen.exited(3).exitCode());
  }

  @Test
  void aCommandThatCouldNotRunIsToldInTheShimsOwnWords() {
    EndSeen s = EndSeen.couldNotRun(127, "cannot run 'x': No such file or directory");
    assertEquals("cannot run 'x': No such file or directory", EndReasons.reason(s));
    assertEquals(127, s.exitCode());
  }

  @Test
  void aFullDiskThatKeptTheRecordFromBeingWrittenGivesTheShimsStatus() {
    EndSeen s = seen(null, 3, DISK);
    assertEquals(3, s.exitCode());
    assertEquals("exited with status 3; its exit record could not be written (" + FULL
        + "), so the status is the one its shim exited with", EndReasons.reason(s));
  }

  @Test
  void theShims127IsNotTakenForTheJobsStatus() {
    EndSeen s = seen(null, 127, DISK);
    assertNull(s.exitCode(), "127: the shim could not wait for the job");
    assertEquals("the job ended but its exit status could not be written: " + FULL, EndReasons.reason(s));
  }

  @Test
  void withoutAFullDiskTheShimsStatusStandsInForNothing() {
    EndSeen s = seen(null, 3, null);
    assertNull(s.exitCode());
    assertNull(EndReasons.reason(s));
  }

  @Test
  void aFailedJobOnAFullDiskSaysItsLogMayBeCutShort() {
    assertEquals("exited with status 2; " + FULL + ", so its log may be cut short",
        EndReasons.reason(seen(ExitRecord.exited(2), null, DISK)));
    assertEquals("killed by signal 9 (exit code 137); " + FULL + ", so its log may be cut short",
        EndReasons.reason(seen(ExitRecord.signalled(9), null, DISK)));
    assertEquals("cannot run 'x'; " + FULL + ", so its log may be cut short",
        EndReasons.reason(seen(ExitRecord.execFailed("cannot run 'x'"), null, DISK)));
    assertNull(EndReasons.reason(seen(ExitRecord.exited(0), null, DISK)), "a job that succeeded is DONE");
  }

  @Test
  void aPreemptedJobSaysWhichSignalStoppedItAndHow() {
    assertEquals("preempted (SIGTERM); killed by signal 15 (exit code 143)",
        EndReasons.reason(seen(ExitRecord.signalled(15), null, null).preempted(TERM, null)));
    assertEquals("preempted (SIGUSR1); exited with status 0", EndReasons.reason(EndSeen.exited(0)
        .preempted(new Preemption(10, true, Duration.ofSeconds(30), null, false, T), null)));
    assertEquals("preempted (SIGTERM); ended without an exit status", EndReasons.reason(EndSeen.NOTHING.preempted(TERM, null)));
    assertEquals("preempted (SIGTERM); exited with status 2; " + FULL + ", so its log may be cut short",
        EndReasons.reason(seen(ExitRecord.exited(2), null, DISK).preempted(TERM, null)));
  }

  @Test
  void aPreemptedJobThatOutlivedItsGraceSaysHowOldItsNewestCheckpointIs() {
    var found = PreemptIgnored.found(T.plusSeconds(60), "checkpoint-150", T.minusSeconds(180));
    assertEquals("did not stop within 1m of SIGTERM; stopped (newest checkpoint checkpoint-150, saved 4m ago)",
        EndReasons.ignored(TERM, found));
    assertEquals("preempted: did not stop within 1m of SIGTERM; stopped (newest checkpoint checkpoint-150, saved 4m ago);"
        + " killed by signal 15 (exit code 143)", EndReasons.reason(seen(ExitRecord.signalled(15), null, null).preempted(TERM, found)));
    assertEquals("did not stop within 1m of SIGTERM; stopped (no complete checkpoint found)",
        EndReasons.ignored(TERM, PreemptIgnored.none(T)));
    assertEquals("did not stop within 1m of SIGTERM; stopped (its checkpoints could not be read)",
        EndReasons.ignored(TERM, PreemptIgnored.unreadable(T)));
  }

  @Test
  void aCheckpointSavedAfterTheLookIsNoOlderThanNow() {
    assertEquals("checkpoint-7, saved 0s ago", EndReasons.checkpoint("checkpoint-7", T.plusSeconds(5), T));
  }

  @Test
  void aStopAtTheLimitDuringAPreemptionIsThePreemptions() {
    assertTrue(EndSeen.exited(143).atTimeLimit().stoppedAtLimit());
    assertFalse(EndSeen.exited(143).atTimeLimit().preempted(TERM, null).stoppedAtLimit());
  }

  @Test
  void aMissingExitStatusSaysWhenAFullDiskKeptItFromBeingWritten() {
    assertEquals("gone; " + FULL, EndReasons.unrecorded("gone", DISK));
    assertEquals("gone", EndReasons.unrecorded("gone", null));
  }
}

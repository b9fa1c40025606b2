package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.end.DiskFull;
import dev.gq.core.end.EndSeen;
import dev.gq.core.end.PreemptIgnored;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.Preemption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A runner's report of an end goes through the decision function to the event and the reason the user reads. */
class EndDecisionTest {
  private static final String FULL = "the disk holding /data/run is full (512 KiB free)";
  /** The disk that note is of: what a runner or the reconciler reports. */
  private static final DiskFull DISK = new DiskFull("/data/run", 512 * 1024);
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(T0.plusSeconds(60), nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  /** Job 1, CPU only, running as {@code spec} with its launch recorded. */
  private void running(JobSpec spec) {
    decide(new Request.Reconciled(Map.of(), 0));
    decide(new Request.Submit(spec));
    decide(new Request.Launched(1, leader(100)));
    assertEquals(JobState.RUNNING, l.live().get(1L).state());
  }

  /** The event job 1's end is recorded with. */
  private LedgerEvent end(EndSeen seen) {
    List<LedgerEvent> events = decide(new Request.Ended(1, seen, nanos++, null, 0)).events();
    return events.get(0);
  }

  @Test
  void anExitRecordEndsTheJobWithItsStatus() {
    running(spec(0));
    assertEquals(new JobExited(1, 5, null, T0.plusSeconds(60)), end(EndSeen.exited(5)));
  }

  @Test
  void aFullDiskThatKeptTheRecordFromBeingWrittenEndsItWithTheShimsStatusAndSaysSo() {
    running(spec(0));
    var e = (JobExited) end(new EndSeen(null, 3, DISK, false, null, null));
    assertEquals(3, e.exitCode());
    assertEquals("exited with status 3; its exit record could not be written (" + FULL
        + "), so the status is the one its shim exited with", e.reason());
  }

  @Test
  void aFullDiskAndNoStatusAtAllEndsItFailedWithTheNote() {
    running(spec(0));
    var e = (JobExited) end(new EndSeen(null, null, DISK, false, null, null));
    assertNull(e.exitCode());
    assertEquals("the job ended but its exit status could not be written: " + FULL, e.reason());
  }

  @Test
  void noStatusAndRoomOnTheDiskIsAnInterruption() {
    running(spec(0));
    assertEquals(new JobInterrupted(1, "the job's processes ended but left no exit status", T0.plusSeconds(60)),
        end(EndSeen.NOTHING));
  }

  @Test
  void aCommandThatCouldNotRunFailsWithTheShellsStatusAndItsReason() {
    running(spec(0));
    assertEquals(new JobExited(1, 127, "cannot run 'x': No such file or directory", T0.plusSeconds(60)),
        end(EndSeen.couldNotRun(127, "cannot run 'x': No such file or directory")));
  }

  @Test
  void aStopAtTheTimeLimitIsATimeout() {
    running(spec(0).withTimeLimit(Duration.ofHours(2)));
    assertEquals(new JobTimedOut(1, 143, "exceeded its time limit of 2h", T0.plusSeconds(60)),
        end(EndSeen.exited(143).atTimeLimit()));
  }

  @Test
  void aPreemptedJobEndsPreemptedWithTheSignalAndWhatItsCheckpointsLookedLike() {
    running(spec(0));
    var asked = decide(new Request.Preempt(new Preemptions.PreemptAsk(List.of(1L), 15, false, Duration.ofMinutes(1), null, false)));
    Preemption p = ((JobPreemptRequested) asked.events().get(0)).preemption();
    var ignored = PreemptIgnored.found(T0.plusSeconds(60), "checkpoint-150", T0.minusSeconds(180));
    var e = (JobExited) end(EndSeen.exited(143).atTimeLimit().preempted(p, ignored));
    assertEquals("preempted: did not stop within 1m of SIGTERM; stopped (newest checkpoint checkpoint-150, saved 4m ago);"
        + " killed by signal 15 (exit code 143)", e.reason(), "a preemption's stop is not the time limit's");
  }

  @Test
  void aPreemptedJobThatStoppedInTimeSaysWhichSignalAskedIt() {
    running(spec(0));
    var asked = decide(new Request.Preempt(new Preemptions.PreemptAsk(List.of(1L), 10, true, Duration.ofMinutes(1), null, false)));
    Preemption p = ((JobPreemptRequested) asked.events().get(0)).preemption();
    assertEquals(new JobExited(1, 0, "preempted (SIGUSR1); exited with status 0", T0.plusSeconds(60)),
        end(EndSeen.exited(0).preempted(p, null)));
  }

  @Test
  void aJobBeingCancelledIsNotInterruptedByAMissingStatus() {
    running(spec(0));
    decide(new Request.Cancel(List.of(1L)));
    assertEquals(new JobExited(1, null, null, T0.plusSeconds(60)), end(EndSeen.NOTHING));
  }

  @Test
  void theSameStatusWithoutAFullDiskIsNotWordedAtAll() {
    running(spec(0));
    var e = (JobExited) end(new EndSeen(ExitRecord.exited(2), 2, null, false, null, null));
    assertNull(e.reason(), "the ledger words a plain exit");
    assertEquals(JobState.FAILED, l.recentEnds().get(l.recentEnds().size() - 1).state());
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.end.EndSeen;
import dev.gq.core.recovery.RecoveryFacts;
import dev.gq.core.schedule.CancelResult;
import dev.gq.core.schedule.Request;
import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.ConfigFactory;
import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Scheduler as an event-sourced actor: decisions become events, effects follow, replay restores. */
class SchedulerTest {
  private static final ActorTestKit KIT = ActorTestKit.create(
      EventSourcedBehaviorTestKit.config().withFallback(ConfigFactory.parseString("""
          pekko.actor.serialization-bindings {
            "dev.gq.core.ledger.LedgerEvent" = jackson-json
            "dev.gq.core.ledger.Ledger" = jackson-json
            "dev.gq.persistence.LedgerSnapshot" = jackson-json
          }
          pekko.actor.serialization-bindings."dev.gq.actors.scheduler.SchedulerProtocol$Command" = java
          pekko.actor.allow-java-serialization = on
          pekko.actor.warn-about-java-serializer-usage = off
          """)));

  private final FakeDeps deps = new FakeDeps();
  private EventSourcedBehaviorTestKit<Scheduler.Command, LedgerEvent, Ledger> es;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    es = EventSourcedBehaviorTestKit.create(KIT.system(), Scheduler.create(NoEffects.settings(3), deps),
        new EventSourcedBehaviorTestKit.SerializationSettings(true, true, false, true, true));
    es.clear();
    es.runCommand(new Scheduler.Report(new Request.Reconciled(Map.of())));
  }

  private static JobSpec spec(int gpus) {
    return new JobSpec(List.of("true"), "/tmp", Map.of("PATH", "/bin"), gpus, null, null, null);
  }

  private static GpuObservation gpus(int n, long... externalPidOnGpu0) {
    List<DeviceReading> ds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<DeviceReading.GpuProcess> ps = i == 0 && externalPidOnGpu0.length > 0
          ? List.of(new DeviceReading.GpuProcess(externalPidOnGpu0[0], 100)) : List.of();
      ds.add(new DeviceReading(i, "GPU-" + i, "Fake", 80L << 30, 0, ps, null));
    }
    Map<Long, ProcessFacts> facts = externalPidOnGpu0.length > 0
        ? Map.of(externalPidOnGpu0[0], new ProcessFacts(externalPidOnGpu0[0], 1, 1, null)) : Map.of();
    return new GpuObservation(new GpuReading(Instant.EPOCH, ds, null), facts);
  }

  private void observe(GpuObservation o) {
    es.runCommand(new Scheduler.Report(new Request.Observed(o, "fake", true, System.nanoTime())));
  }

  private StatusReply<Ledger.SubmitOutcome> submit(JobSpec s) {
    return es.<StatusReply<Ledger.SubmitOutcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Submit(s), r)).reply();
  }

  @Test
  void cpuOnlyJobIsReservedInTheSameTransactionAsItsSubmission() {
    var result = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Submit(spec(0)), r));
    assertTrue(result.reply().isSuccess());
    assertEquals(2, result.events().size());
    assertInstanceOf(JobSubmitted.class, result.events().get(0));
    assertEquals(List.of(), assertInstanceOf(JobReserved.class, result.events().get(1)).gpus());
    assertEquals(1, deps.started.size());
  }

  @Test
  void gpuJobIsRefusedUntilAReadingExistsThenPlacedOnTheLowestFreeGpu() {
    assertTrue(submit(spec(1)).isError());
    observe(gpus(2));
    var result = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Submit(spec(1)), r));
    JobReserved r = assertInstanceOf(JobReserved.class, result.events().get(1));
    assertEquals(List.of(new GpuSlot("GPU-0", 0)), r.gpus());
  }

  @Test
  void tooManyGpusIsRefusedWithTheVisibleCount() {
    observe(gpus(2));
    var reply = submit(spec(3));
    assertTrue(reply.isError());
    assertTrue(reply.getError().getMessage().contains("2"), reply.getError().getMessage());
  }

  @Test
  void externalProcessKeepsTheGpuFromBeingReserved() {
    observe(gpus(1, 4242));
    var result = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Submit(spec(1)), r));
    assertEquals(1, result.events().size(), "submitted but not reserved");
    SchedulerView v = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    assertTrue(v.waitReasons().get(1L).text().contains("outside process"), v.waitReasons().toString());
  }

  @Test
  void aViewAskedEarlierSaysWhatHeldAtItsMomentWhenItsGpusAndReasonsAreReadLater() {
    observe(gpus(1, 4242));
    submit(spec(1));
    SchedulerView before = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    observe(gpus(1)); // the outside process is gone: job 1 is placed
    SchedulerView after = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    assertEquals(JobState.STARTING, after.ledger().live().get(1L).state());
    assertTrue(before.waitReasons().get(1L).text().contains("outside process"), before.waitReasons().toString());
    assertEquals(GpuState.EXTERNAL, before.gpus().get(0).state());
    assertFalse(after.waitReasons().containsKey(1L));
    assertNotEquals(GpuState.EXTERNAL, after.gpus().get(0).state());
  }

  @Test
  void theStoredSequenceNumberIsTheOneAViewReflects() {
    observe(gpus(1));
    submit(spec(1));
    long seq = es.<Long>runCommand(Scheduler.GetSeqNr::new).reply();
    assertTrue(seq > 0);
    assertEquals(es.<SchedulerView>runCommand(Scheduler.GetView::new).reply().seqNr(), seq);
  }

  /** The runner's report: job {@code id} exited 0, its processes seen gone now, then {@code after} read. */
  private static Scheduler.Report endedWithReading(long id, GpuObservation after) {
    long gone = System.nanoTime();
    return new Scheduler.Report(new Request.Ended(id, EndSeen.exited(0), gone, after, gone + 1));
  }

  @Test
  void freedGpuGoesToTheNextJobInTheSameWriteAsTheEndOnTheReadingTakenAfterIt() {
    observe(gpus(1));
    submit(spec(1));
    submit(spec(1));
    es.runCommand(new Scheduler.Report(new Request.Launched(1, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    var ended = es.runCommand(endedWithReading(1, gpus(1)));
    assertEquals(2, ended.events().size());
    assertInstanceOf(JobExited.class, ended.events().get(0));
    assertEquals(2, assertInstanceOf(JobReserved.class, ended.events().get(1)).jobId());
    assertEquals(List.of(1L, 2L), deps.started);
    assertEquals(0, deps.polls, "nothing held back: no reading competes with the launch");
  }

  /** Job 1 runs on GPU 0, job 2 waits; the latest reading shows GPU 0 with {@code pids} on it. */
  private void jobRunningAndOneWaiting(long... pids) {
    observe(gpus(1));
    submit(spec(1));
    submit(spec(1));
    es.runCommand(new Scheduler.Report(new Request.Launched(1, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    observe(gpus(1, pids));
  }

  @Test
  void aReadingOlderThanTheEndNeverHandsTheGpuOn() {
    // The latest reading shows GPU 0 idle; a process of job 1 may have opened a context since.
    jobRunningAndOneWaiting();
    long beforeEnd = System.nanoTime();
    var ended = es.runCommand(new Scheduler.Report(new Request.Ended(1, EndSeen.exited(0), System.nanoTime(), null, 0)));
    assertEquals(1, ended.events().size(), "no reading from after the end: GPU 0 is not handed on");
    assertEquals(1, deps.polls, "a reading is asked for at once");
    SchedulerView v = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    assertEquals(GpuState.UNKNOWN, v.gpus().get(0).state(), v.gpus().toString());
    var stale = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1), "fake", true, beforeEnd)));
    assertTrue(stale.events().isEmpty(), "a reading begun before the end proves nothing");
    var child = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1, 4242), "fake", true, System.nanoTime())));
    assertTrue(child.events().isEmpty(), "the fresh reading shows a process on GPU 0");
    var after = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1), "fake", true, System.nanoTime())));
    assertEquals(2, assertInstanceOf(JobReserved.class, after.events().get(0)).jobId());
  }

  @Test
  void endedJobsDeadProcessesDoNotHoldUpTheNextJob() {
    jobRunningAndOneWaiting(4242);
    var ended = es.runCommand(endedWithReading(1, gpus(1)));
    assertEquals(2, assertInstanceOf(JobReserved.class, ended.events().get(1)).jobId());
  }

  @Test
  void aProcessTheReadingAfterTheEndShowsKeepsTheFreedGpuUntilAReadingFreesIt() {
    jobRunningAndOneWaiting();
    var ended = es.runCommand(endedWithReading(1, gpus(1, 4242)));
    assertEquals(1, ended.events().size(), "process 4242 computes on GPU 0: it is not free");
    assertEquals(1, deps.polls, "the held-back GPU is read again at once");
    var still = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1, 4242), "fake", true, System.nanoTime())));
    assertTrue(still.events().isEmpty());
    var after = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1), "fake", true, System.nanoTime())));
    assertEquals(2, assertInstanceOf(JobReserved.class, after.events().get(0)).jobId());
  }

  @Test
  void aReadingBegunBeforeTheOneInHandIsIgnored() {
    jobRunningAndOneWaiting();
    long older = System.nanoTime();
    es.runCommand(endedWithReading(1, gpus(1, 4242)));
    var stale = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(1), "fake", true, older)));
    assertTrue(stale.events().isEmpty(), "the older reading does not show process 4242, and must not count");
    SchedulerView v = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    assertEquals(GpuState.EXTERNAL, v.gpus().get(0).state());
  }

  @Test
  void cancelOfAWaitingJobCancelsItAndOfARunningOneAsksItsRunner() {
    observe(gpus(1));
    submit(spec(1));
    submit(spec(1));
    var c = es.<StatusReply<List<CancelResult>>>runCommand(r -> new Scheduler.Ask<>(new Request.Cancel(List.of(2L, 1L, 99L)), r));
    assertInstanceOf(JobCancelled.class, c.events().get(0));
    assertInstanceOf(JobCancelRequested.class, c.events().get(1));
    assertEquals(List.of("CANCELLED", "STOPPING", "UNKNOWN"),
        c.reply().getValue().stream().map(CancelResult::kind).toList());
    assertEquals(JobState.CANCELLING, c.state().live().get(1L).state());
  }

  @Test
  void restartReplaysTheLedgerAndPlacesNothingBeforeReconciliation() {
    observe(gpus(2));
    submit(spec(1));
    submit(spec(2));
    es.runCommand(new Scheduler.Report(new Request.Launched(1, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    var restarted = es.restart();
    Ledger l = restarted.state();
    assertEquals(3, l.nextId());
    Job running = l.live().get(1L);
    assertEquals(JobState.RUNNING, running.state());
    assertEquals(100, running.identity().pid());
    assertEquals(JobState.WAITING, l.live().get(2L).state());
    var obs = es.runCommand(new Scheduler.Report(new Request.Observed(gpus(2), "fake", true, System.nanoTime())));
    assertTrue(obs.events().isEmpty(), "nothing is placed before start-up reconciliation");
  }

  @Test
  void waitingJobsKeepNoCommandInTheStateOrTheSnapshotsAndOnePlacedInItsOwnWriteStartsWithIt() {
    JobSpec cell = new JobSpec(List.of("python", "train.py"), "/tmp", Map.of("WANDB_MODE", "offline"), 0, null, "g", null);
    var placedAtOnce = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Submit(cell), r));
    assertEquals(cell, assertInstanceOf(JobSubmitted.class, placedAtOnce.events().get(0)).spec(), "the journal has it all");
    assertEquals(cell, deps.startedJobs.get(0).spec(), "the runner of a job placed in its own write gets the command");
    es.<StatusReply<String>>runCommand(r -> new Scheduler.Ask<>(new Request.HoldQueue(null), r));
    for (int i = 0; i < 4; i++) submit(cell);
    for (Ledger l : List.of(es.getState(), es.restart().state())) {
      List<Job> waiting = l.waiting();
      assertEquals(4, waiting.size());
      for (Job j : waiting) {
        assertEquals(List.of(), j.spec().argv(), "a waiting job's argv stays in the database");
        assertEquals(Map.of(), j.spec().env(), "a waiting job's environment stays in the database");
        assertEquals("g", j.spec().group());
      }
    }
    es.runCommand(new Scheduler.Report(new Request.Reconciled(Map.of())));
    es.<StatusReply<String>>runCommand(r -> new Scheduler.Ask<>(new Request.ReleaseQueue(null), r));
    assertEquals(3, deps.startedJobs.size(), "fail-fast lets three jobs of a group start before any has launched");
    assertFalse(deps.startedJobs.get(2).spec().hasCommand(), "the others' runners read the command at launch");
  }

  @Test
  void keyedSubmissionIsSkippedWhileItsHolderLives() {
    JobSpec keyed = new JobSpec(List.of("true"), "/tmp", Map.of(), 0, null, "g", "cell-1");
    assertFalse(submit(keyed).getValue().skipped());
    var again = submit(keyed).getValue();
    assertTrue(again.skipped());
    assertEquals(1, again.jobId());
  }

  /** Job 1, CPU-only and RUNNING; after {@code restartWithoutRunner} no runner watches it. */
  private void runningCpuJob(boolean restartWithoutRunner) {
    submit(spec(0));
    es.runCommand(new Scheduler.Report(new Request.Launched(1, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    if (!restartWithoutRunner) return;
    es.restart();
    es.runCommand(new Scheduler.Report(new Request.Reconciled(Map.of())));
  }

  /** The periodic pass found job {@code id}'s processes gone, with no exit record. */
  private static Scheduler.Report interrupted(long id) {
    return drifted(id, false);
  }

  private static Scheduler.Report drifted(long id, boolean alive) {
    var found = new RecoveryFacts("boot", Optional.empty(), alive, Optional.empty(), null);
    return new Scheduler.Report(new Request.Drifted(Map.of(id, JobState.RUNNING), Map.of(id, found)));
  }

  /** The event the periodic pass's report of job {@code id} is recorded with. */
  private static JobInterrupted unseen(long id) {
    return new JobInterrupted(id, "the job's processes ended while no runner watched them and left no exit status",
        Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Test
  void driftOfAJobNoRunnerWatchesIsPersisted() {
    runningCpuJob(true);
    var result = es.runCommand(interrupted(1));
    assertEquals(List.of(unseen(1)), result.events());
    assertFalse(result.state().live().containsKey(1L));
  }

  @Test
  void driftOfAJobItsRunnerWatchesIsLeftToTheRunner() {
    runningCpuJob(false);
    var result = es.runCommand(interrupted(1));
    assertTrue(result.events().isEmpty(), result.events().toString());
    assertEquals(JobState.RUNNING, result.state().live().get(1L).state());
  }

  @Test
  void anAliveJobNoRunnerWatchesGetsARunnerFromThePeriodicPass() {
    runningCpuJob(true);
    deps.started.clear();
    es.runCommand(drifted(1, true));
    assertEquals(List.of(1L), deps.started);
    // a second pass finds it watched
    es.runCommand(drifted(1, true));
    assertEquals(List.of(1L), deps.started);
  }

  @Test
  void aJobWhoseRunnerStoppedWithoutReportingItsEndIsCheckedAtOnce() {
    deps.runnersStop = true;
    submit(spec(0));
    es.runCommand(new Scheduler.Report(new Request.Launched(1, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    // the Scheduler sees its runner stop (a message of its own, soon after) and asks for a check of the job
    for (long end = System.nanoTime() + 5_000_000_000L; deps.checked.isEmpty() && System.nanoTime() - end < 0; )
      es.runCommand(Scheduler.GetLedger::new);
    assertEquals(List.of(1L), deps.checked.stream().map(Job::id).toList());
    // no runner watches it any more: the check's verdict is acted on
    List<LedgerEvent> events = es.runCommand(interrupted(1)).events();
    assertEquals(List.of(unseen(1)), events);
  }

  /** Records what the Scheduler asks of the rest of the daemon. */
  static final class FakeDeps extends NoEffects {
    final List<Long> started = new ArrayList<>();
    final List<Job> startedJobs = new ArrayList<>();
    /** Runners that stop at once, as one that crashed. */
    boolean runnersStop;
    /** The jobs the Scheduler asked to have checked now. */
    final List<Job> checked = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<LedgerEvent> projected = new ArrayList<>();
    int polls;

    @Override
    public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
        Map<String, Long> totalMiB) {
      started.add(job.id());
      startedJobs.add(job);
      return ctx.spawnAnonymous(runnersStop ? Behaviors.<JobRunner.Command>stopped() : Behaviors.<JobRunner.Command>ignore());
    }

    @Override public void checkNow(ActorContext<Scheduler.Command> ctx, List<Job> jobs, ActorRef<Scheduler.Command> s) {
      checked.addAll(jobs);
    }
    @Override public void project(long firstSeq, List<LedgerEvent> events) { projected.addAll(events); }
    @Override public void pollNow() { polls++; }
  }
}

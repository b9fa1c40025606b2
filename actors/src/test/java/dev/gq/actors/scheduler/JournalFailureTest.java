package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.ConfigFactory;
import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.schedule.Request;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.PersistenceTestKitPlugin;
import org.apache.pekko.persistence.testkit.PersistenceTestKitSnapshotPlugin;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A journal write that fails: the request that needed it is refused at once with one line, the
 * runners keep watching their jobs, and a job's end is written as soon as the journal takes it.
 */
class JournalFailureTest {
  private static final ActorTestKit KIT = ActorTestKit.create(PersistenceTestKitPlugin.getInstance().config()
      .withFallback(PersistenceTestKitSnapshotPlugin.getInstance().config())
      .withFallback(ConfigFactory.parseString("""
          pekko.actor.serialization-bindings {
            "dev.gq.core.ledger.LedgerEvent" = jackson-json
            "dev.gq.core.ledger.Ledger" = jackson-json
            "dev.gq.persistence.LedgerSnapshot" = jackson-json
          }
          """)));
  private static final PersistenceTestKit JOURNAL = PersistenceTestKit.create(KIT.system());
  private static final Duration SOON = Duration.ofSeconds(10);

  private final Deps deps = new Deps();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private final List<ActorRef<Scheduler.Command>> spawned = new java.util.ArrayList<>();

  /** A Scheduler of its own for this test (one at a time writes the journal: the last test's is stopped). */
  private ActorRef<Scheduler.Command> spawn() {
    ActorRef<Scheduler.Command> s = KIT.spawn(Scheduler.create(NoEffects.settings(1000), deps));
    spawned.add(s);
    return s;
  }

  @AfterEach
  void clear() {
    spawned.forEach(s -> KIT.stop(s, Duration.ofSeconds(10)));
    JOURNAL.clearAll();
    JOURNAL.resetPolicy();
    JournalWrites.stored();
  }

  @Test
  void aRequestWhoseWriteFailsIsRefusedWithOneLineAndTheRunnersKeepWatching() {
    ActorRef<Scheduler.Command> s = spawn();
    ready(s);
    long job = runningJob(s);
    JOURNAL.failNextPersisted();
    TestProbe<StatusReply<String>> hold = KIT.createTestProbe();
    s.tell(new Scheduler.Ask<>(new Request.HoldQueue(null), hold.getRef()));
    StatusReply<String> reply = hold.receiveMessage(Duration.ofSeconds(5));
    assertTrue(reply.isError());
    assertTrue(reply.getError().getMessage().startsWith("cannot write the journal (/data/gq.db): "), reply.getError().getMessage());
    assertNotNull(JournalWrites.problem(), "the failure is known for the status");
    // The runner was not stopped with the write: the job's end it reports is stored.
    deps.runners.get(0).tell(new JobRunner.Cancel());
    awaitEnded(s, job, 5);
    assertNull(JournalWrites.problem(), "a write that succeeds clears the failure");
  }

  @Test
  void aJobsEndIsWrittenOnceTheJournalTakesItAgain() {
    ActorRef<Scheduler.Command> s = spawn();
    ready(s);
    long job = runningJob(s);
    JOURNAL.failNextNPersisted(3);
    deps.runners.get(0).tell(new JobRunner.Cancel());
    awaitEnded(s, job, 5);
  }

  @Test
  void nothingIsAnsweredLaunchedOrFedToTheHistoryForASubmitWhoseWriteFailed() {
    ActorRef<Scheduler.Command> s = spawn();
    ready(s);
    awaitReady(s);
    deps.projected.clear();
    JOURNAL.failNextPersisted();
    TestProbe<StatusReply<Ledger.SubmitOutcome>> r = KIT.createTestProbe();
    s.tell(new Scheduler.Ask<>(new Request.Submit(oneGpu(), Map.of()), r.getRef()));
    StatusReply<Ledger.SubmitOutcome> refused = r.receiveMessage(SOON);
    assertTrue(refused.isError(), "the caller hears the refusal, never a job id: " + refused);
    TestProbe<SchedulerView> v = KIT.createTestProbe();
    s.tell(new Scheduler.GetView(v.getRef()));
    SchedulerView view = v.receiveMessage(SOON);
    assertTrue(view.ledger().live().isEmpty(), "no job in the memory the view reads");
    assertEquals(dev.gq.core.gpu.GpuState.FREE, view.gpus().get(0).state(), "GPU 0 was not reserved: " + view.gpus());
    assertTrue(deps.runners.isEmpty(), "nothing was launched");
    assertTrue(deps.projected.isEmpty(), "the history was told nothing: " + deps.projected);
    // The journal takes writes again: the same submit is job 1, placed and launched once.
    s.tell(new Scheduler.Ask<>(new Request.Submit(oneGpu(), Map.of()), r.getRef()));
    assertEquals(1L, r.receiveMessage(SOON).getValue().jobId());
    assertEquals(1, deps.runners.size());
    assertEquals(List.of("JobSubmitted", "JobReserved"),
        deps.projected.stream().map(e -> e.getClass().getSimpleName()).toList());
  }

  @Test
  void whatComesDuringAWriteIsDecidedTogetherAndWrittenInOneTransaction() throws Exception {
    ActorRef<Scheduler.Command> s = spawn();
    ready(s);
    awaitReady(s);
    Writes writes = new Writes(1);
    JOURNAL.withPolicy(writes);
    TestProbe<StatusReply<String>> held = KIT.createTestProbe();
    s.tell(new Scheduler.Ask<>(new Request.HoldQueue(null), held.getRef()));
    assertTrue(writes.blocked.await(10, java.util.concurrent.TimeUnit.SECONDS), "the first write is under way");
    List<TestProbe<StatusReply<Ledger.SubmitOutcome>>> callers = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TestProbe<StatusReply<Ledger.SubmitOutcome>> r = KIT.createTestProbe();
      s.tell(new Scheduler.Ask<>(new Request.Submit(oneGpu(), Map.of()), r.getRef()));
      callers.add(r);
    }
    callers.forEach(r -> r.expectNoMessage(Duration.ofMillis(200))); // no answer before the write that holds the events
    writes.release.countDown();
    assertTrue(held.receiveMessage(SOON).isSuccess());
    for (int i = 0; i < 3; i++) assertEquals(i + 1L, callers.get(i).receiveMessage(SOON).getValue().jobId());
    assertEquals(List.of(1, 3), writes.sizes, "the hold, then the three submits in one write");
  }

  @Test
  void aBatchWhoseWriteFailsRefusesEachRequestInIt() throws Exception {
    ActorRef<Scheduler.Command> s = spawn();
    ready(s);
    awaitReady(s);
    Writes writes = new Writes(1);
    writes.failing = 2;
    JOURNAL.withPolicy(writes);
    TestProbe<StatusReply<String>> held = KIT.createTestProbe();
    s.tell(new Scheduler.Ask<>(new Request.HoldQueue(null), held.getRef()));
    assertTrue(writes.blocked.await(10, java.util.concurrent.TimeUnit.SECONDS));
    List<TestProbe<StatusReply<Ledger.SubmitOutcome>>> callers = new java.util.ArrayList<>();
    for (int i = 0; i < 2; i++) {
      TestProbe<StatusReply<Ledger.SubmitOutcome>> r = KIT.createTestProbe();
      s.tell(new Scheduler.Ask<>(new Request.Submit(oneGpu(), Map.of()), r.getRef()));
      callers.add(r);
    }
    writes.release.countDown();
    assertTrue(held.receiveMessage(SOON).isSuccess());
    for (var r : callers) {
      StatusReply<Ledger.SubmitOutcome> reply = r.receiveMessage(SOON);
      assertTrue(reply.isError(), "refused: " + reply);
      assertTrue(reply.getError().getMessage().startsWith("cannot write the journal"), reply.getError().getMessage());
    }
    TestProbe<Ledger> l = KIT.createTestProbe();
    s.tell(new Scheduler.GetLedger(l.getRef()));
    assertTrue(l.receiveMessage(SOON).live().isEmpty());
    assertTrue(JOURNAL.persistedInStorage("scheduler").stream().noneMatch(LedgerEvent.JobSubmitted.class::isInstance));
  }

  /**
   * A journal that holds write number {@code blockAt} until released, records the number of events of
   * each write, and fails write number {@code failing} (0: none).
   */
  private static final class Writes implements org.apache.pekko.persistence.testkit.ProcessingPolicy<org.apache.pekko.persistence.testkit.JournalOperation> {
    final java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    final List<Integer> sizes = new CopyOnWriteArrayList<>();
    private final int blockAt;
    volatile int failing;

    Writes(int blockAt) {
      this.blockAt = blockAt;
    }

    @Override
    public org.apache.pekko.persistence.testkit.ProcessingResult tryProcess(String id,
        org.apache.pekko.persistence.testkit.JournalOperation op) {
      if (!(op instanceof org.apache.pekko.persistence.testkit.WriteEvents w))
        return org.apache.pekko.persistence.testkit.ProcessingSuccess.getInstance();
      int n = sizes.size() + 1;
      if (n == failing) {
        sizes.add(-w.getBatch().size());
        return org.apache.pekko.persistence.testkit.StorageFailure.create(new java.io.IOException("disk I/O error"));
      }
      sizes.add(w.getBatch().size());
      if (n == blockAt) {
        blocked.countDown();
        try {
          release.await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return org.apache.pekko.persistence.testkit.ProcessingSuccess.getInstance();
    }
  }

  private static JobSpec oneGpu() {
    return new JobSpec(List.of("true"), "/tmp", Map.of("PATH", "/bin"), 1, null, null, null);
  }

  private void awaitReady(ActorRef<Scheduler.Command> s) {
    TestProbe<org.apache.pekko.Done> r = KIT.createTestProbe();
    s.tell(new Scheduler.AwaitReady(r.getRef()));
    r.receiveMessage(SOON);
    // the reading's write (if any) is stored once a read-only ask is answered after it
    TestProbe<Ledger> l = KIT.createTestProbe();
    s.tell(new Scheduler.GetLedger(l.getRef()));
    l.receiveMessage(SOON);
  }

  private void ready(ActorRef<Scheduler.Command> s) {
    s.tell(new Scheduler.Report(new Request.Reconciled(Map.of())));
    s.tell(new Scheduler.Report(new Request.Observed(gpus(), "fake", true, System.nanoTime())));
  }

  /** Submits a one-GPU job and reports it launched; returns its id. */
  private long runningJob(ActorRef<Scheduler.Command> s) {
    TestProbe<StatusReply<Ledger.SubmitOutcome>> r = KIT.createTestProbe();
    JobSpec spec = new JobSpec(List.of("true"), "/tmp", Map.of("PATH", "/bin"), 1, null, null, null);
    s.tell(new Scheduler.Ask<>(new Request.Submit(spec, Map.of()), r.getRef()));
    assertTrue(r.receiveMessage(SOON).isSuccess());
    long id = 1;
    s.tell(new Scheduler.Report(new Request.Launched(id, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    // the launch may wait behind a write still in flight; the ledger is read without waiting for it
    TestProbe<Ledger> l = KIT.createTestProbe();
    l.awaitAssert(SOON, () -> {
      s.tell(new Scheduler.GetLedger(l.getRef()));
      assertEquals(dev.gq.core.job.JobState.RUNNING, l.receiveMessage(SOON).live().get(id).state());
      return null;
    });
    assertEquals(1, deps.runners.size());
    return id;
  }

  private void awaitEnded(ActorRef<Scheduler.Command> s, long id, int exitCode) {
    TestProbe<Ledger> l = KIT.createTestProbe();
    l.awaitAssert(SOON, () -> {
      s.tell(new Scheduler.GetLedger(l.getRef()));
      assertFalse(l.receiveMessage(SOON).live().containsKey(id), "job " + id + " ended");
      return null;
    });
    List<LedgerEvent> events = JOURNAL.persistedInStorage("scheduler").stream().map(LedgerEvent.class::cast).toList();
    List<Integer> codes = events.stream().filter(LedgerEvent.JobExited.class::isInstance)
        .map(e -> ((LedgerEvent.JobExited) e).exitCode()).toList();
    assertEquals(List.of(exitCode), codes, "the end is stored once, with its exit code: " + events);
  }

  private static GpuObservation gpus() {
    return new GpuObservation(new GpuReading(Instant.EPOCH,
        List.of(new DeviceReading(0, "GPU-0", "Fake", 80L << 30, 0, List.of(), null)), null), Map.of());
  }

  /** Runners that report the job's end with exit status 5 when told to cancel. */
  static final class Deps extends NoEffects {
    final List<ActorRef<JobRunner.Command>> runners = new CopyOnWriteArrayList<>();
    final List<LedgerEvent> projected = new CopyOnWriteArrayList<>();

    @Override
    public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
        Map<String, Long> totalMiB) {
      ActorRef<Scheduler.Command> scheduler = ctx.getSelf();
      ActorRef<JobRunner.Command> r = ctx.spawnAnonymous(Behaviors.receive(JobRunner.Command.class)
          .onMessage(JobRunner.Cancel.class, c -> {
            scheduler.tell(new Scheduler.Report(new Request.Ended(job.id(), EndSeen.exited(5), System.nanoTime(), null, 0)));
            return Behaviors.stopped();
          }).build());
      runners.add(r);
      return r;
    }

    @Override public void project(long firstSeq, List<LedgerEvent> events) { projected.addAll(events); }
  }
}

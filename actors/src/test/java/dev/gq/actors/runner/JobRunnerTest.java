package dev.gq.actors.runner;

import dev.gq.core.schedule.Request;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.Signals;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.host.launch.ShimLauncher;
import dev.gq.host.proc.ProcFs;
import dev.gq.host.signal.GroupSignals;
import dev.gq.protocol.GqPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner with the real /proc, shim and signaller: it never signals a process it cannot prove is its job's. */
class JobRunnerTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final ProcFs PROCS = new ProcFs();

  @TempDir Path tmp;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private RunnerDeps deps() {
    return deps(id -> {
      throw new IllegalStateException("no stored job in this test");
    });
  }

  private RunnerDeps deps(java.util.function.LongFunction<Job> stored) {
    return deps(new GroupSignals(PROCS), stored, java.time.Clock.systemUTC());
  }

  private RunnerDeps deps(java.util.function.LongFunction<Job> stored, java.time.Clock clock) {
    return deps(new GroupSignals(PROCS), stored, clock);
  }

  private RunnerDeps deps(Signals signals, java.util.function.LongFunction<Job> stored) {
    return deps(signals, stored, java.time.Clock.systemUTC());
  }

  private RunnerDeps deps(Signals signals, java.util.function.LongFunction<Job> stored, java.time.Clock clock) {
    Path shim = Path.of(System.getProperty("user.dir")).resolve("../host/target/gq-shim").normalize();
    GqPaths paths = new GqPaths(tmp, tmp);
    try {
      Files.createDirectories(paths.exitDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var settings = new RunnerSettings(paths, Duration.ofMillis(200), Duration.ofMillis(50), PlanRules.HEADROOM_MIB, null, clock);
    return new RunnerDeps(settings, new TestRunnerEffects(new ShimLauncher(shim, PROCS), PROCS, signals,
        Executors.newCachedThreadPool(), () -> {
          readAt.set(System.nanoTime());
          return READING;
        }, stored));
  }

  @Test
  void aJobKeptWithoutItsCommandIsLaunchedWithTheCommandAndLogPathReadFromTheStore() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    Job stored = starting(12, "sh", "-c", "echo \"$GQ_TEST_MARK\" \"$0\"", "from-argv");
    stored = stored.withSpec(stored.spec().withEnv(Map.of("PATH", "/usr/bin:/bin", "GQ_TEST_MARK", "from-env")));
    Job inMemory = stored.withoutCommand();
    assertFalse(inMemory.spec().hasCommand());
    List<Long> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    Job whole = stored;
    KIT.spawn(JobRunner.launch(inMemory, deps(id -> {
      asked.add(id);
      return whole;
    }), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    assertEquals(0, ended(scheduler).seen().exitCode());
    assertEquals(List.of(12L), asked);
    assertEquals("from-env from-argv\n", java.nio.file.Files.readString(tmp.resolve("12.log")));
  }

  /** The runner's report of the job's end, after its notices that the end is on its way. */
  private static Request.Ended ended(TestProbe<Request.Fact> scheduler) {
    List<Request.Fact> seen = scheduler.fishForMessage(Duration.ofSeconds(10), m -> m instanceof Request.Ending
        ? org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes.continueAndIgnore()
        : org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes.complete());
    return assertInstanceOf(Request.Ended.class, seen.get(seen.size() - 1));
  }

  @Test
  void theSchedulerHearsThatTheEndIsOnItsWayBeforeTheEnd() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    KIT.spawn(JobRunner.launch(starting(14, "true"), deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    assertEquals(new Request.Ending(14, true), scheduler.expectMessageClass(Request.Ending.class, Duration.ofSeconds(10)));
    assertEquals(0, scheduler.expectMessageClass(Request.Ended.class, Duration.ofSeconds(10)).seen().exitCode());
  }

  @Test
  void theLaunchBeginsWhenTheRunnerIsMadeAndTheRunnerSpawnedAfterItReportsIt() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    Job job = starting(16, "sh", "-c", "echo started");
    var behavior = JobRunner.launch(job, deps(), scheduler.ref(), Map.of());
    Path log = tmp.resolve("16.log");
    for (int i = 0; i < 1000 && !(java.nio.file.Files.exists(log) && java.nio.file.Files.readString(log).contains("started")); i++)
      Thread.sleep(10);
    assertEquals("started\n", java.nio.file.Files.readString(log), "the job ran before its runner was spawned");
    KIT.spawn(behavior);
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    assertEquals(0, ended(scheduler).seen().exitCode());
  }

  @Test
  void aCommandThatCannotBeRunEndsTheJobAtOnceWithStatus127AndTheReason() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    KIT.spawn(JobRunner.launch(starting(15, "no-such-program-gq"), deps(), scheduler.ref(), Map.of()));
    Request.Ended e = scheduler.expectMessageClass(Request.Ended.class, Duration.ofSeconds(10));
    assertEquals(127, e.seen().exitCode());
    assertEquals("cannot run 'no-such-program-gq': No such file or directory", e.seen().record().text());
  }

  @Test
  void aJobWhoseCommandCannotBeReadFailsToLaunchSayingWhy() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    KIT.spawn(JobRunner.launch(starting(13, "true").withoutCommand(), deps(), scheduler.ref(), Map.of()));
    Request.LaunchFailed f = scheduler.expectMessageClass(Request.LaunchFailed.class, Duration.ofSeconds(10));
    assertEquals("cannot read the job's command from the database: no stored job in this test", f.reason());
  }

  private static final GpuObservation READING = new GpuObservation(new GpuReading(Instant.EPOCH, List.of(), null), Map.of());
  private final AtomicLong readAt = new AtomicLong();

  private static Job running(ProcessIdentity who) {
    JobSpec spec = new JobSpec(List.of("sleep", "30"), "/", Map.of(), 0, null, null, null);
    return new Job(7, spec, JobState.RUNNING, Instant.now(), Instant.now(), null, List.of(), who, null,
        "/dev/null", null, "tag-7", null);
  }

  @Test
  void recycledPidIsNeverSignalled() throws Exception {
    // An unrelated process that leads its own group, standing where the job's leader used to be.
    Process stranger = new ProcessBuilder("setsid", "sleep", "30").start();
    try {
      ProcInfo info = waitForOwnSession(stranger.pid());
      ProcessIdentity recycled = new ProcessIdentity(info.pid(), info.pid(), info.pid(), info.startTicks() + 12345, PROCS.bootId());
      TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
      java.util.concurrent.BlockingQueue<String> tried = new java.util.concurrent.LinkedBlockingQueue<>();
      GroupSignals real = new GroupSignals(PROCS);
      Signals recorded = new Signals() {
        @Override
        public Outcome signalGroup(ProcessIdentity id, int signal) {
          Outcome o = real.signalGroup(id, signal);
          tried.add(signal + " " + o);
          return o;
        }

        @Override
        public int signalTagged(ProcessIdentity id, String tag, int signal) {
          return real.signalTagged(id, tag, signal);
        }

        @Override
        public Outcome signalMain(ProcessIdentity id, String tag, int signal) {
          return real.signalMain(id, tag, signal);
        }
      };
      var runner = KIT.spawn(JobRunner.reattach(running(recycled), deps(recorded, id -> {
        throw new IllegalStateException("no stored job in this test");
      }), scheduler.ref()));
      runner.tell(new JobRunner.Cancel());
      // the SIGTERM, then the SIGKILL after the 200 ms grace: each refused as not the job's
      assertEquals("15 NOT_OURS", tried.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals("9 NOT_OURS", tried.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      assertTrue(stranger.isAlive(), "a process that is not the job's was signalled");
    } finally {
      stranger.destroyForcibly().waitFor();
    }
  }

  @Test
  void launchedJobIsCancelledAndReportsItsEnd() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    JobSpec spec = new JobSpec(List.of("sleep", "30"), tmp.toString(), Map.of("PATH", "/usr/bin:/bin"), 0, null, null, null);
    Job job = new Job(8, spec, JobState.STARTING, Instant.now(), Instant.now(), null, List.of(), null, null,
        tmp.resolve("8.log").toString(), null, "tag-8", null);
    var runner = KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    Request.Launched launched = scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    assertEquals(launched.identity().pid(), launched.identity().sid(), "the shim leads its own session");
    runner.tell(new JobRunner.Cancel());
    Request.Ended ended = ended(scheduler);
    assertEquals(128 + 15, ended.seen().exitCode(), "SIGTERM recorded by the shim");
  }

  @Test
  void cancelReachesADetachedChildCarryingTheJobsTag() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    Path pidFile = tmp.resolve("detached.pid");
    Job job = starting(13, "sh", "-c", "setsid sh -c 'echo $$ > " + pidFile + "; exec sleep 30' & wait");
    var runner = KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    awaitFile(pidFile);
    long child = Long.parseLong(Files.readString(pidFile).strip());
    runner.tell(new JobRunner.Cancel());
    ended(scheduler);
    // a zombie until whoever inherited it reaps it
    assertTrue(PROCS.info(child).map(ProcInfo::zombie).orElse(true), "the detached child is stopped too");
  }

  private static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!(Files.exists(file) && !readQuietly(file).isBlank())) {
      assertTrue(System.nanoTime() < deadline, file + " never written");
      Thread.sleep(20);
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private Job starting(long id, String... argv) {
    return starting(id, List.of(), argv);
  }

  private Job starting(long id, List<GpuSlot> gpus, String... argv) {
    JobSpec spec = new JobSpec(List.of(argv), tmp.toString(), Map.of("PATH", "/usr/bin:/bin"), gpus.size(), null, null, null);
    return new Job(id, spec, JobState.STARTING, Instant.now(), Instant.now(), null, gpus, null, null,
        tmp.resolve(id + ".log").toString(), null, "tag-" + id, null);
  }

  @Test
  void jobEndsOnlyOnceTheProcessItLeftInItsGroupIsGoneWithAGpuReadingFromAfterThat() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    Path marker = tmp.resolve("left-ended");
    Job job = starting(10, List.of(new GpuSlot("GPU-0", 0)), "sh", "-c", "(sleep 1; touch " + marker + ") & exit 0");
    KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    Request.Ended ended = ended(scheduler);
    assertTrue(Files.exists(marker), "ended before the process left in its group");
    assertEquals(0, ended.seen().exitCode());
    assertSame(READING, ended.after());
    assertTrue(ended.afterNanos() - ended.endedNanos() > 0, "the reading is taken after the processes were seen gone");
    assertTrue(readAt.get() - ended.afterNanos() >= 0, "and begun no earlier than it says");
  }

  @Test
  void detachedChildCarryingTheJobsTagKeepsTheJobFromEnding() throws Exception {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    Path marker = tmp.resolve("detached-ended");
    // setsid: the child leaves the job's session and group, and keeps its GQ_JOB_TAG
    Job job = starting(12, List.of(new GpuSlot("GPU-0", 0)), "sh", "-c",
        "setsid sh -c 'sleep 1; touch " + marker + "' & sleep 0.1");
    KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    Request.Ended ended = ended(scheduler);
    assertTrue(Files.exists(marker), "ended while its detached child still ran");
    assertEquals(0, ended.seen().exitCode());
    assertSame(READING, ended.after());
  }

  @Test
  void jobWithoutGpusThatLeftNothingBehindEndsWithoutAReading() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    KIT.spawn(JobRunner.launch(starting(11, "sh", "-c", "exit 5"), deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    Request.Ended ended = ended(scheduler);
    assertEquals(5, ended.seen().exitCode());
    assertNull(ended.after());
    assertEquals(0, readAt.get(), "no GPU, nothing to read");
  }

  @Test
  void jobPastItsTimeLimitIsStoppedAndReportedAsTimedOut() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    JobSpec spec = new JobSpec(List.of("sleep", "30"), tmp.toString(), Map.of("PATH", "/usr/bin:/bin"), 0, null, null, null)
        .withTimeLimit(Duration.ofSeconds(1));
    Job job = new Job(9, spec, JobState.STARTING, Instant.now(), Instant.now(), null, List.of(), null, null,
        tmp.resolve("9.log").toString(), null, "tag-9", null);
    KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    Request.Ended ended = ended(scheduler);
    assertTrue(ended.seen().timedOut());
    assertEquals(128 + 15, ended.seen().exitCode(), "stopped by SIGTERM");
  }

  @Test
  void aTimeLimitTooFarToCountNeitherStopsTheRunnerNorHidesTheJobsEnd() {
    TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
    // 999,999 weeks: more nanoseconds than a long holds, which the runner's timer once failed on
    JobSpec spec = new JobSpec(List.of("sh", "-c", "sleep 0.2; exit 5"), tmp.toString(), Map.of("PATH", "/usr/bin:/bin"), 0,
        null, null, null).withTimeLimit(Duration.ofDays(7L * 999_999));
    Job job = new Job(8, spec, JobState.STARTING, Instant.now(), Instant.now(), null, List.of(), null, null,
        tmp.resolve("8.log").toString(), null, "tag-8", null);
    KIT.spawn(JobRunner.launch(job, deps(), scheduler.ref(), Map.of()));
    scheduler.expectMessageClass(Request.Launched.class, Duration.ofSeconds(10));
    Request.Ended ended = ended(scheduler);
    assertFalse(ended.seen().timedOut());
    assertEquals(5, ended.seen().exitCode());
  }

  @Test
  void reattachedJobWhoseLimitPassedWhileTheDaemonWasDownIsStoppedAtOnce() throws Exception {
    Process job = new ProcessBuilder("setsid", "sleep", "30").start();
    try {
      ProcInfo info = waitForOwnSession(job.pid());
      ProcessIdentity who = new ProcessIdentity(info.pid(), info.pid(), info.pid(), info.startTicks(), PROCS.bootId());
      Job late = running(who);
      late = new Job(late.id(), late.spec().withTimeLimit(Duration.ofMinutes(1)), late.state(), late.submitTime(),
          Instant.now().minus(Duration.ofHours(1)), null, List.of(), who, null, "/dev/null", null, "tag-7", null);
      TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
      KIT.spawn(JobRunner.reattach(late, deps(), scheduler.ref()));
      Request.Ended ended = ended(scheduler);
      assertTrue(ended.seen().timedOut());
      assertFalse(job.isAlive() && PROCS.info(job.pid()).map(p -> !p.zombie()).orElse(false), "the job was stopped");
    } finally {
      job.destroyForcibly().waitFor();
    }
  }

  @Test
  void theTimeLimitIsCountedOnTheDaemonsClock() throws Exception {
    Process job = new ProcessBuilder("setsid", "sleep", "30").start();
    try {
      ProcInfo info = waitForOwnSession(job.pid());
      ProcessIdentity who = new ProcessIdentity(info.pid(), info.pid(), info.pid(), info.startTicks(), PROCS.bootId());
      Instant started = Instant.now();
      Job j = running(who);
      j = new Job(j.id(), j.spec().withTimeLimit(Duration.ofHours(1)), j.state(), started, started, null, List.of(), who,
          null, "/dev/null", null, "tag-7", null);
      // two hours after the start by the clock the runner is given, though the wall clock says a moment
      java.time.Clock later = java.time.Clock.fixed(started.plus(Duration.ofHours(2)), java.time.ZoneOffset.UTC);
      TestProbe<Request.Fact> scheduler = KIT.createTestProbe();
      KIT.spawn(JobRunner.reattach(j, deps(id -> null, later), scheduler.ref()));
      assertTrue(ended(scheduler).seen().timedOut());
    } finally {
      job.destroyForcibly().waitFor();
    }
  }

  private static ProcInfo waitForOwnSession(long pid) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      var info = PROCS.info(pid);
      if (info.isPresent() && info.get().sid() == pid) return info.get();
      Thread.sleep(10);
    }
    throw new AssertionError("process " + pid + " never led its own session");
  }
}

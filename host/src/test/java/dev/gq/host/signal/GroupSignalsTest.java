package dev.gq.host.signal;

import static dev.gq.host.TestJobs.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.launch.Signals.Outcome;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.host.TestJobs;
import dev.gq.host.launch.ExitFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupSignalsTest {

  static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;
  TestJobs jobs;
  GroupSignals signals;

  @BeforeEach
  void start() {
    jobs = new TestJobs(dir);
    signals = new GroupSignals(jobs.proc);
  }

  @AfterEach
  void stop() {
    jobs.close();
  }

  /** A running {@code sleep} job, returned once the sleep itself runs. */
  private LaunchedProcess sleeper(LaunchSpec spec) throws Exception {
    LaunchedProcess job = jobs.launch(spec);
    await("sleep runs", WAIT, () -> jobs.groupRuns(job.identity().pgid(), "sleep"));
    return job;
  }

  private List<Long> sleepPids(ProcessIdentity id) {
    return jobs.proc.members(id.pgid(), id.sid()).stream()
        .filter(p -> p.comm().equals("sleep")).map(ProcInfo::pid).toList();
  }

  @Test
  void wrongStartTicksIsNotOursAndNothingIsSent() throws Exception {
    LaunchedProcess job = sleeper(jobs.spec("sleep", "30"));
    ProcessIdentity id = job.identity();
    ProcessIdentity recycled = new ProcessIdentity(id.pid(), id.pgid(), id.sid(), id.startTicks() + 1, id.bootId());
    assertEquals(Outcome.NOT_OURS, signals.signalGroup(recycled, 9));
    assertStillRunning(job);
  }

  @Test
  void otherBootIsNotOursAndNothingIsSent() throws Exception {
    LaunchedProcess job = sleeper(jobs.spec("sleep", "30"));
    ProcessIdentity id = job.identity();
    ProcessIdentity lastBoot = new ProcessIdentity(id.pid(), id.pgid(), id.sid(), id.startTicks(), "other-boot");
    assertEquals(Outcome.NOT_OURS, signals.signalGroup(lastBoot, 9));
    assertStillRunning(job);
  }

  @Test
  void theMainProcessAloneGetsThePreemptionSignalNeverItsWorkers() throws Exception {
    java.util.Map<String, String> env = new java.util.HashMap<>(TestJobs.pathOnly());
    env.put("GQ_JOB_TAG", "tag-of-the-job");
    // the workers start after the shim's window for its command, as a training run's do
    LaunchSpec base = jobs.spec("sh", "-c", "sleep 2.5; sleep 30 & sleep 31 & wait");
    LaunchedProcess job = jobs.launch(new LaunchSpec(base.jobId(), base.argv(), base.cwd(), env, base.logFile(),
        base.exitFile(), List.of()));
    ProcessIdentity id = job.identity();
    await("both workers run", WAIT, () -> sleepPids(id).size() == 2);
    List<Long> workers = sleepPids(id);
    ProcInfo main = jobs.proc.all().stream().filter(p -> p.ppid() == id.pid() && p.comm().equals("sh")).findFirst().orElseThrow();
    assertEquals(Outcome.NOT_OURS, signals.signalMain(id, "another-tag", 15), "the tag is proved on the process");
    assertTrue(TestJobs.alive(main.pid()));
    ProcessIdentity recycled = new ProcessIdentity(id.pid(), id.pgid(), id.sid(), id.startTicks() + 1, id.bootId());
    assertEquals(Outcome.NOT_OURS, signals.signalMain(recycled, "tag-of-the-job", 15));
    assertEquals(Outcome.SENT, signals.signalMain(id, "tag-of-the-job", 15));
    await("the main process ends", WAIT, () -> !TestJobs.alive(main.pid())
        || jobs.proc.info(main.pid()).map(ProcInfo::zombie).orElse(true));
    for (long w : workers) assertTrue(TestJobs.alive(w), "worker " + w + " was signalled");
    // the main process has ended (the shim with it, or about to): a worker left over is never taken for it
    assertEquals(Outcome.GONE, signals.signalMain(id, "tag-of-the-job", 15));
    for (long w : workers) assertTrue(TestJobs.alive(w));
  }

  @Test
  void processOutsideTheSessionCarryingTheJobsTagIsSignalledAndOnlyIt() throws Exception {
    ProcessBuilder tagged = new ProcessBuilder("setsid", "sleep", "30");
    tagged.environment().put("GQ_JOB_TAG", "tag-of-the-job");
    ProcessBuilder other = new ProcessBuilder("setsid", "sleep", "30");
    other.environment().put("GQ_JOB_TAG", "tag-of-the-job-too"); // a longer tag: another job's
    Process t = tagged.start(), o = other.start();
    try {
      await("both run under their own session", WAIT, () -> ownSession(t.pid()) && ownSession(o.pid()));
      // the job's own session and group are elsewhere: this identity names neither process
      ProcessIdentity job = new ProcessIdentity(999_999, 999_999, 999_999, 1, jobs.proc.bootId());
      assertEquals(1, signals.signalTagged(job, "tag-of-the-job", 15));
      assertTrue(t.waitFor(10, TimeUnit.SECONDS));
      assertEquals(128 + 15, t.exitValue());
      assertTrue(o.isAlive(), "a process with another tag is not signalled");
      ProcessIdentity otherBoot = new ProcessIdentity(999_999, 999_999, 999_999, 1, "other-boot");
      assertEquals(0, signals.signalTagged(otherBoot, "tag-of-the-job-too", 15));
      ProcessIdentity itsSession = new ProcessIdentity(o.pid(), o.pid(), o.pid(), 1, jobs.proc.bootId());
      assertEquals(0, signals.signalTagged(itsSession, "tag-of-the-job-too", 15), "its session has it from signalGroup");
      assertTrue(o.isAlive());
    } finally {
      t.destroyForcibly();
      o.destroyForcibly();
    }
  }

  private boolean ownSession(long pid) {
    return jobs.proc.info(pid).map(p -> p.sid() == pid && p.comm().equals("sleep")).orElse(false);
  }

  // A signal is delivered before kill() returns; a few short looks confirm none arrived.
  private void assertStillRunning(LaunchedProcess job) throws InterruptedException {
    List<Long> sleeps = sleepPids(job.identity());
    assertFalse(sleeps.isEmpty());
    for (int i = 0; i < 10; i++) {
      Thread.sleep(10);
      assertFalse(job.shimExited().isDone());
      assertTrue(sleeps.stream().allMatch(TestJobs::alive));
    }
  }

  @Test
  void verifiedGroupIsSignalledAndEnds() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "sleep 30 & sleep 30; wait");
    LaunchedProcess job = sleeper(spec);
    await("both sleeps run", WAIT, () -> sleepPids(job.identity()).size() == 2);
    assertEquals(Outcome.SENT, signals.signalGroup(job.identity(), 15));
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(ExitRecord.signalled(15), ExitFiles.read(spec.exitFile()).orElseThrow().withPid(null));
    await("the group is empty", WAIT, () -> jobs.proc.members(job.identity().pgid(), job.identity().sid()).isEmpty());
  }

  @Test
  void groupOutlivingItsShimIsStillSignalled() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "sleep 30 >/dev/null & exit 0");
    LaunchedProcess job = jobs.launch(spec);
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    ProcessIdentity id = job.identity();
    await("the leftover sleep runs", WAIT, () -> sleepPids(id).size() == 1);
    assertEquals(Outcome.SENT, signals.signalGroup(id, 15));
    await("the group is empty", WAIT, () -> jobs.proc.members(id.pgid(), id.sid()).isEmpty());
  }

  @Test
  void groupsInsideTheJobSessionAreSignalledToo() throws Exception {
    // timeout(1) moves itself and its command into a process group of their own
    LaunchedProcess job = jobs.launch(jobs.spec("timeout", "60", "sleep", "30"));
    ProcessIdentity id = job.identity();
    await("sleep runs in another group", WAIT,
        () -> jobs.proc.members(id.pgid(), id.sid()).stream().anyMatch(p -> p.comm().equals("sleep") && p.pgid() != id.pgid()));
    assertEquals(Outcome.SENT, signals.signalGroup(id, 15));
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    await("the session is empty", WAIT, () -> jobs.proc.members(id.pgid(), id.sid()).isEmpty());
  }

  @Test
  void endedJobIsGone() throws Exception {
    LaunchedProcess job = jobs.launch(jobs.spec("true"));
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(Outcome.GONE, signals.signalGroup(job.identity(), 15));
  }

  @Test
  void identityNamingNoRealGroupIsNeverSignalled() {
    String boot = jobs.proc.bootId();
    assertEquals(Outcome.NOT_OURS, signals.signalGroup(new ProcessIdentity(0, 0, 0, -1, boot), 0));
    assertEquals(Outcome.NOT_OURS, signals.signalGroup(new ProcessIdentity(1, 1, 1, -1, boot), 0));
  }

  @Test
  void unknownPidOnThisBootIsGone() {
    ProcessIdentity never = new ProcessIdentity(Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 1,
        Integer.MAX_VALUE - 1, 1, jobs.proc.bootId());
    assertEquals(Outcome.GONE, signals.signalGroup(never, 15));
  }
}

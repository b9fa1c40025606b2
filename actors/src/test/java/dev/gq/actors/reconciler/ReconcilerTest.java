package dev.gq.actors.reconciler;

import dev.gq.core.schedule.Request;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.recovery.RecoveryFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reconciler: the start-up pass, then a periodic pass, each reporting what it found to the Scheduler, which judges it. */
class ReconcilerTest {
  private static final ActorTestKit KIT = ActorTestKit.create(ManualTime.config());
  private static final ManualTime TIME = ManualTime.get(KIT.system());
  private static final ExecutorService BLOCKING = Executors.newCachedThreadPool();
  private static final Duration INTERVAL = Duration.ofSeconds(30);
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String BOOT = "boot-1";
  private static final String GPU = "GPU-0";

  @TempDir Path tmp;
  private final List<ProcInfo> procs = new CopyOnWriteArrayList<>();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
    BLOCKING.shutdownNow();
  }

  private final ProcessTable table = new ProcessTable() {
    @Override public Optional<ProcInfo> info(long pid) {
      return procs.stream().filter(p -> p.pid() == pid).findFirst();
    }
    @Override public Optional<String> environ(long pid, String name) {
      return Optional.empty();
    }
    @Override public List<ProcInfo> all() {
      return List.copyOf(procs);
    }
    @Override public String bootId() {
      return BOOT;
    }
  };

  private final GpuProbe probe = new GpuProbe() {
    @Override public GpuReading read() {
      return new GpuReading(NOW, List.of(new DeviceReading(0, GPU, "fake", 1L << 30, 0, List.of(), null)), null);
    }
    @Override public String describe() {
      return "in-memory";
    }
    @Override public boolean fake() {
      return true;
    }
  };

  private ActorRef<Reconciler.Command> reconciler() throws Exception {
    Files.createDirectories(tmp.resolve("run"));
    JobChecks checks = new JobChecks(table, probe, id -> tmp.resolve("run").resolve(id + ".exit"), p -> Optional.empty());
    return KIT.spawn(Reconciler.create(checks, INTERVAL, BLOCKING));
  }

  private static Job job(long id, JobState state) {
    JobSpec spec = new JobSpec(List.of("sleep", "30"), "/", Map.of(), 1, null, null, null);
    ProcessIdentity who = state == JobState.STARTING ? null : new ProcessIdentity(100 * id, 100 * id, 100 * id, 5000 + id, BOOT);
    return new Job(id, spec, state, NOW, NOW, null, List.of(new GpuSlot(GPU, 0)), who, null, "/dev/null", null, "tag-" + id, null);
  }

  private static ProcInfo leader(long id) {
    return new ProcInfo(100 * id, 1, 100 * id, 100 * id, 5000 + id, 'S', "sleep");
  }

  private static Ledger ledger(Job... jobs) {
    TreeMap<Long, Job> live = new TreeMap<>();
    for (Job j : jobs) live.put(j.id(), j);
    return new Ledger(10, live, Map.of(), false, Map.of());
  }

  @Test
  void startUpPassRepliesWithWhatItFoundOfEveryJobPastWaiting() throws Exception {
    procs.add(leader(1));
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    reconciler().tell(new Reconciler.Reconcile(List.of(job(1, JobState.RUNNING), job(2, JobState.RUNNING),
        job(3, JobState.WAITING)), scheduler.ref()));
    Request.Reconciled r = (Request.Reconciled) scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();
    assertEquals(List.of(1L, 2L), r.facts().keySet().stream().sorted().toList());
    assertEquals(new RecoveryFacts(BOOT, Optional.empty(), true, Optional.empty(), Set.of(GPU), null), r.facts().get(1L));
    assertEquals(new RecoveryFacts(BOOT, Optional.empty(), false, Optional.empty(), Set.of(GPU), null), r.facts().get(2L));
  }

  @Test
  void aFullDiskUnderTheExitRecordsIsReportedWithWhatWasFound() throws Exception {
    Path small = tmp.resolve("small");
    Files.createDirectories(small);
    Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.toString()).redirectErrorStream(true)
        .start();
    assumeTrue(m.waitFor() == 0, "needs permission to mount a small tmpfs");
    try {
      Path run = Files.createDirectories(small.resolve("run"));
      new ProcessBuilder("bash", "-c", "cat /dev/zero > " + small.resolve("filler") + " 2>/dev/null; true").start().waitFor();
      JobChecks checks = new JobChecks(table, probe, id -> run.resolve(id + ".exit"), p -> Optional.empty());
      TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
      KIT.spawn(Reconciler.create(checks, INTERVAL, BLOCKING)).tell(new Reconciler.Reconcile(List.of(job(2, JobState.RUNNING)),
          scheduler.ref()));
      Request.Reconciled r = (Request.Reconciled) scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();
      String full = r.facts().get(2L).diskFull() == null ? null : r.facts().get(2L).diskFull().text();
      assertTrue(full != null && full.startsWith("the disk holding " + run + " is full ("), full);
    } finally {
      new ProcessBuilder("umount", "-l", small.toString()).start().waitFor();
    }
  }

  @Test
  void periodicPassReportsAJobWhoseProcessesAreGoneAsDrift() throws Exception {
    procs.add(leader(1));
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<Reconciler.Command> r = reconciler();
    Job running = job(1, JobState.RUNNING);
    r.tell(new Reconciler.Reconcile(List.of(running), scheduler.ref()));
    scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();

    procs.clear();   // the job's processes end while nothing watches them
    TIME.timePasses(INTERVAL);
    Scheduler.GetLedger ask = scheduler.expectMessageClass(Scheduler.GetLedger.class, Duration.ofSeconds(10));
    ask.replyTo().tell(ledger(running, job(2, JobState.STARTING), job(3, JobState.WAITING), job(4, JobState.ORPHANED)));
    Request.Drifted d = (Request.Drifted) scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();
    // STARTING jobs are their runner's (being launched); WAITING ones have nothing to check
    assertEquals(Map.of(1L, JobState.RUNNING, 4L, JobState.ORPHANED), d.seen());
    assertFalse(d.facts().get(1L).alive(), "its processes are gone");
    assertTrue(d.facts().get(1L).exit().isEmpty());
    assertEquals(Set.of(1L, 4L), d.facts().keySet());
  }

  @Test
  void aJobWhoseRunnerFailedIsCheckedAtOnceWithoutWaitingForThePass() throws Exception {
    procs.add(leader(2));
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<Reconciler.Command> r = reconciler();
    // job 1's processes are gone; job 2's still run; no time passes
    r.tell(new Reconciler.CheckNow(List.of(job(1, JobState.RUNNING), job(2, JobState.CANCELLING)), scheduler.ref()));
    Request.Drifted d = (Request.Drifted) scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();
    assertEquals(Map.of(1L, JobState.RUNNING, 2L, JobState.CANCELLING), d.seen());
    assertFalse(d.facts().get(1L).alive());
    assertTrue(d.facts().get(2L).alive(), "a job still running: the Scheduler gives it a runner again");
  }

  @Test
  void aReconcilerStartedAgainResumesItsPeriodicPasses() throws Exception {
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    Files.createDirectories(tmp.resolve("run"));
    JobChecks checks = new JobChecks(table, probe, id -> tmp.resolve("run").resolve(id + ".exit"), p -> Optional.empty());
    // as after a restart: the Scheduler is known, no start-up pass comes
    KIT.spawn(Reconciler.create(checks, INTERVAL, BLOCKING, scheduler::ref, dev.gq.actors.health.Beat.NONE));
    TIME.timePasses(INTERVAL);
    scheduler.expectMessageClass(Scheduler.GetLedger.class, Duration.ofSeconds(10));
  }

  @Test
  void periodicPassWithNothingToReportSendsNothingAndRunsAgain() throws Exception {
    procs.add(leader(1));
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<Reconciler.Command> r = reconciler();
    r.tell(new Reconciler.Reconcile(List.of(), scheduler.ref()));
    scheduler.expectMessageClass(Scheduler.Report.class, Duration.ofSeconds(10)).fact();
    TIME.timePasses(INTERVAL);
    scheduler.expectMessageClass(Scheduler.GetLedger.class, Duration.ofSeconds(10)).replyTo().tell(ledger(job(3, JobState.WAITING)));
    TIME.timePasses(INTERVAL);
    // the next message is the next pass's question, not a report of the last one
    scheduler.expectMessageClass(Scheduler.GetLedger.class, Duration.ofSeconds(10)).replyTo().tell(ledger());
    TIME.timePasses(INTERVAL);
    scheduler.expectMessageClass(Scheduler.GetLedger.class, Duration.ofSeconds(10));
  }
}

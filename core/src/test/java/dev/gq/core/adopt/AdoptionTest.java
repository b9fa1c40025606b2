package dev.gq.core.adopt;

import static dev.gq.core.Fixtures.*;
import static dev.gq.core.adopt.AdoptWorld.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.schedule.Request;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The decision of {@code gq adopt}, through the Scheduler's one decision function. */
class AdoptionTest {
  private final AdoptWorld w = new AdoptWorld();

  @BeforeEach
  void ready() {
    w.ready();
  }

  private GpuStatus gpu(int index) {
    return w.s.gpus().classified(w.l).stream().filter(g -> g.index() == index).findFirst().orElseThrow();
  }

  private String refusal(Candidate c) {
    var d = w.decide(adopt(c));
    assertTrue(d.refused(), "accepted: " + d.events());
    assertTrue(d.events().isEmpty());
    return d.refusal();
  }

  @Test
  void anOutsideRunBecomesARunningJobThatOwnsItsGpu() {
    w.read(facts(runFacts()), device(0), device(1, RUN.pid()));
    assertEquals(GpuState.EXTERNAL, gpu(1).state());
    var d = w.decide(adopt(candidate()));
    JobAdopted e = assertInstanceOf(JobAdopted.class, d.events().get(0));
    assertEquals(List.of(uuid(1)), e.gpus().stream().map(g -> g.uuid()).toList());
    assertEquals(List.of(RUN.pid()), d.answer().gpuPids());
    assertEquals(List.of("python", "train.py", "--lr", "3e-4"), e.spec().argv());
    assertEquals("/home/u/exp", e.spec().cwd());
    assertEquals(Map.of(), e.spec().env(), "the environment of an adopted process is never stored");
    assertEquals(T0.minusSeconds(3600), e.startTime());
    assertEquals("/home/u/exp/out.log", e.logPath());
    assertTrue(e.identity().adopted());
    Job j = w.l.live().get(d.answer().jobId());
    assertEquals(JobState.RUNNING, j.state());
    assertTrue(j.adopted());
    assertEquals(GpuState.RUNNING, gpu(1).state());
    assertEquals(j.id(), gpu(1).ownerJobId());
    assertEquals(GpuState.FREE, gpu(0).state());
  }

  @Test
  void aGpuOnlyADescendantUsesIsTheJobsToo() {
    w.read(facts(runFacts(), under(5000, RUN_REF, SHELL), under(5001, new ProcessRef(5000, 1), RUN_REF)),
        device(0, 5000), device(1, 5001), device(2));
    var d = w.decide(adopt(candidate()));
    assertEquals(List.of(0, 1), d.answer().gpus().stream().map(g -> g.index()).toList());
    assertEquals(List.of(5000L, 5001L), d.answer().gpuPids(), "the descendants the GPUs list, for the reply to name");
    assertEquals(GpuState.RUNNING, gpu(0).state());
    assertEquals(GpuState.RUNNING, gpu(1).state());
  }

  @Test
  void aRunOnNoGpuBecomesAZeroGpuJob() {
    w.read(facts(), device(0));
    var d = w.decide(adopt(candidate()));
    assertEquals(List.of(), d.answer().gpus());
    assertEquals(0, w.l.live().get(d.answer().jobId()).spec().gpus());
  }

  @Test
  void aJobWaitingForTheGpuStartsOnceTheAdoptedRunEndsAndItEndsExited() {
    w.read(facts(runFacts()), device(0, RUN.pid()));
    long adopted = w.decide(adopt(candidate())).answer().jobId();
    long waiting = w.decide(new Request.Submit(spec(1))).answer().jobId();
    assertEquals(JobState.WAITING, w.l.live().get(waiting).state());
    var obs = new dev.gq.core.alloc.GpuObservation(new dev.gq.core.gpu.GpuReading(T0, List.of(device(0)), null), Map.of());
    long ended = w.nanos++;
    Job before = w.l.live().get(adopted);
    var d = w.decide(new Request.Ended(adopted, EndSeen.NOTHING, ended, obs, ended + 1));
    JobExited x = assertInstanceOf(JobExited.class, d.events().get(0));
    assertNull(x.exitCode(), "no exit code is invented");
    assertInstanceOf(JobReserved.class, d.events().get(d.events().size() - 1));
    assertEquals(JobState.STARTING, w.l.live().get(waiting).state());
    Job end = dev.gq.core.ledger.JobTransitions.next(before, x);
    assertEquals(JobState.EXITED, end.state());
    assertEquals("exit status unknown: the process was adopted", end.failureReason());
    assertNull(end.exitCode());
    assertFalse(w.l.live().containsKey(adopted), "EXITED is an end");
  }

  @Test
  void aCancelledAdoptedJobEndsCancelled() {
    w.read(facts(runFacts()), device(0, RUN.pid()));
    long id = w.decide(adopt(candidate())).answer().jobId();
    w.decide(new Request.Cancel(List.of(id)));
    Job before = w.l.live().get(id);
    assertEquals(JobState.CANCELLING, before.state());
    var d = w.decide(new Request.Ended(id, EndSeen.NOTHING, w.nanos++, null, 0));
    JobExited x = assertInstanceOf(JobExited.class, d.events().get(0));
    assertEquals(JobState.CANCELLED, dev.gq.core.ledger.JobTransitions.next(before, x).state());
  }

  @Test
  void aVanishedOrZombieProcessIsRefused() {
    w.read(facts(), device(0));
    Candidate c = candidate();
    Candidate gone = new Candidate(c.pid(), null, -1, UID, List.of(), null, null, null, BOOT, null, List.of(), c.daemonLineage());
    assertEquals("process 4242 does not exist (it has ended, or is not visible here); check the PID with 'ps -p 4242'",
        refusal(gone));
    ProcInfo z = new ProcInfo(4242, 4000, 4000, 3900, 777, 'Z', "python");
    assertTrue(refusal(new Candidate(c.pid(), z, UID, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage())).startsWith("process 4242 does not exist"));
  }

  @Test
  void anotherUsersProcessIsRefused() {
    w.read(facts(), device(0));
    Candidate c = candidate();
    Candidate root = new Candidate(c.pid(), c.info(), 0, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage());
    assertEquals("process 4242 belongs to uid 0, not to you (uid 1000); gq adopts only your own processes", refusal(root));
    Candidate setuid = new Candidate(c.pid(), c.info(), -1, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage());
    assertTrue(refusal(setuid).contains("belongs to another user"));
  }

  @Test
  void aJobsOwnProcessOrAnAdoptedOnesDescendantIsRefused() {
    w.l = w.l.apply(new JobSubmitted(1, spec(0), "tag-1", "/logs/1.log", null, T0));
    w.l = w.l.apply(new JobReserved(1, List.of(), T0));
    w.l = w.l.apply(new JobLaunched(1, leader(100), T0));
    w.read(facts(runFacts()), device(0, RUN.pid()));
    Candidate c = candidate();
    Candidate tagged = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, "tag-1",
        c.lineage(), c.daemonLineage());
    assertEquals("process 4242 is already job 1's; see 'gq show 1'", refusal(tagged));
    long adopted = w.decide(adopt(c)).answer().jobId();
    assertEquals("process 4242 is already job " + adopted + "'s (adopted); see 'gq show " + adopted + "'", refusal(c));
    ProcInfo child = new ProcInfo(4300, 4242, 4000, 3900, 800, 'S', "worker");
    Candidate desc = new Candidate(4300, child, UID, UID, List.of("worker"), "/", null, null, BOOT, null,
        List.of(ProcessRef.of(child), RUN_REF, SHELL), c.daemonLineage());
    assertTrue(refusal(desc).startsWith("process 4300 is already job " + adopted + "'s (adopted)"));
  }

  @Test
  void aProcessOfAnyGqsJobIsRefusedWithWhatShowsIt() {
    w.read(facts(), device(0));
    Candidate c = candidate();
    Candidate tagged = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, "tag-of-another-gq",
        c.lineage(), c.daemonLineage());
    assertEquals("process 4242 carries a gq job's tag (GQ_JOB_TAG): it is a job of another gq, or was started from one;"
        + " gq adopts only runs started by hand, never a job of any gq", refusal(tagged));
    Candidate shim = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage(), c.pid(), List.of());
    assertTrue(refusal(shim).startsWith("process 4242 is a gq job's shim; "), refusal(shim));
    Candidate under = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage(), 4000, List.of());
    assertTrue(refusal(under).startsWith("process 4242 runs under gq job shim 4000; "), refusal(under));
    Candidate leased = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        c.daemonLineage(), 0, List.of("/run/lock/gq/GPU-1.lease"));
    assertTrue(refusal(leased).startsWith("process 4242 holds the GPU lease /run/lock/gq/GPU-1.lease open: it is a gq job's; "),
        refusal(leased));
  }

  @Test
  void theDaemonOrWhatStartedItIsRefused() {
    w.read(facts(), device(0));
    Candidate c = candidate();
    Candidate shell = new Candidate(c.pid(), c.info(), UID, UID, c.argv(), c.cwd(), null, null, BOOT, null, c.lineage(),
        List.of(new ProcessRef(77, 1), RUN_REF));
    assertTrue(refusal(shell).contains("the gq daemon or one of the processes that started it"));
  }

  @Test
  void aGpuAnotherJobHoldsIsRefused() {
    w.read(facts(), device(0));
    long job = w.decide(new Request.Submit(spec(1))).answer().jobId();
    w.decide(new Request.Launched(job, leader(100)));
    w.read(facts(runFacts()), device(0, RUN.pid()));
    assertEquals(GpuState.UNKNOWN, gpu(0).state());
    assertEquals("GPU 0, which process 4242 uses, is held by job " + job + "; gq never gives a GPU to two jobs (see 'gq gpu')",
        refusal(candidate()));
  }

  @Test
  void aGpuSharedWithAnOutsiderOrUnreadableIsRefused() {
    w.read(facts(runFacts(), stranger(6000)), device(0, RUN.pid(), 6000));
    assertEquals("GPU 0 is also used by process(es) 6000, which process 4242 did not start; gq adopts a run only onto GPUs"
        + " that it alone uses", refusal(candidate()));
    w.read(facts(runFacts()), device(0, RUN.pid(), 6001));
    assertTrue(refusal(candidate()).contains("process(es) 6001"), "a PID /proc cannot show is nobody's");
    w.read(facts(runFacts()), device(0, RUN.pid()), dev.gq.core.gpu.DeviceReading.failed(1, uuid(1), "GPU is lost"));
    assertTrue(refusal(candidate()).startsWith("GPU 1 cannot be read (GPU is lost)"));
    var failed = new dev.gq.core.alloc.GpuObservation(dev.gq.core.gpu.GpuReading.failed(T0, "driver gone"), Map.of());
    w.decide(new Request.Observed(failed, "fake", true, w.nanos++));
    assertTrue(refusal(candidate()).startsWith("the GPUs cannot be read (driver gone)"));
  }

  @Test
  void aTakenKeyIsRefusedAndLabelsAreKept() {
    w.read(facts(), device(0));
    w.decide(new Request.Submit(keyed(0, "k")));
    var d = w.decide(new Request.Adopt(new Adoption.AdoptAsk(candidate(), "run-a", "g", "k")));
    assertEquals("key 'k' is already STARTING as job 1; adopt with another --key, or none", d.refusal());
    var ok = w.decide(new Request.Adopt(new Adoption.AdoptAsk(candidate(), "run-a", "g", "k2")));
    Job j = w.l.live().get(ok.answer().jobId());
    assertEquals("run-a", j.displayName());
    assertEquals("g", j.spec().group());
  }

  @Test
  void afterOkOnAnAdoptedJobIsRefusedAndAfterIsNot() {
    w.read(facts(), device(0));
    long id = w.decide(adopt(candidate())).answer().jobId();
    var ok = w.decide(new Request.Submit(spec(0).withAfter(List.of(new Dependency(id, true)))));
    assertEquals("job " + id + " was adopted, so gq will never know whether it succeeded; use --after instead of --after-ok",
        ok.refusal());
    var plain = w.decide(new Request.Submit(spec(0).withAfter(List.of(new Dependency(id, false)))));
    assertFalse(plain.refused(), plain.refusal());
  }
}

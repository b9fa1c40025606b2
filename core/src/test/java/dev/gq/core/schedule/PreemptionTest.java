package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.LineageFact;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PreemptionTest {
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(T0, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  private void start(int gpus) {
    decide(new Request.Reconciled(Map.of(), 0));
    decide(new Request.Observed(obs(gpus), "fake", true, nanos++));
  }

  private static GpuObservation obs(int gpus) {
    DeviceReading[] d = new DeviceReading[gpus];
    for (int i = 0; i < gpus; i++) d[i] = device(i);
    return new GpuObservation(new GpuReading(T0, List.of(d), null), Map.of());
  }

  private Decided<List<String>> preempt(Long forJob, boolean requeue, long... ids) {
    List<Long> list = java.util.Arrays.stream(ids).boxed().toList();
    return decide(new Request.Preempt(new Preemptions.PreemptAsk(list, 15, false, Duration.ofMinutes(5), forJob, requeue)));
  }

  /** The job's processes are gone; the runner's reading after that shows every GPU idle. */
  private Decided<Void> ended(long id, Integer code, int gpus) {
    return decide(new Request.Ended(id, EndSeen.exited(code), nanos++, obs(gpus), nanos++));
  }

  private static List<Class<?>> kinds(Decided<?> d) {
    return d.events().stream().<Class<?>>map(Object::getClass).toList();
  }

  @Test
  void aPreemptedJobKeepsItsGpusWhileItSavesAndEndsPreemptedNotFailed() {
    start(1);
    decide(new Request.Submit(keyed(1, "lr=0.1")));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(1)));
    var p = preempt(null, false, 1);
    assertEquals(List.of(JobPreemptRequested.class), kinds(p), "nothing else starts on its GPU yet");
    assertEquals(JobState.PREEMPTING, l.live().get(1L).state());
    assertTrue(l.live().get(1L).state().holdsGpus());
    var end = ended(1, 143, 1);
    assertInstanceOf(JobExited.class, end.events().get(0));
    assertFalse(l.live().containsKey(1L));
    assertEquals(JobState.PREEMPTED, l.recentEnd(1));
    assertTrue(l.settings().preempting().isEmpty(), "its preemption is over");
    var again = decide(new Request.Submit(keyed(1, "lr=0.1")));
    assertTrue(again.answer().skipped(), "its key stays its own: a sweep run again does not start it twice");
  }

  @Test
  void theFreedGpuGoesToTheJobNamedInTheSameWriteAheadOfOlderJobs() {
    start(1);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(1).withPriority(50)));
    decide(new Request.Submit(spec(1)));
    preempt(3L, false, 1);
    var end = ended(1, 0, 1);
    assertEquals(List.of(JobExited.class, JobReserved.class), kinds(end));
    assertEquals(3L, ((JobReserved) end.events().get(1)).jobId(), "job 3, not the older job 2 of higher priority");
    assertTrue(l.settings().keptFor().isEmpty());
  }

  @Test
  void aGpuKeptForAJobStaysOffLimitsUntilItsReadingShowsItFree() {
    start(2);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(2, leader(200)));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    preempt(4L, false, 1);
    // no reading after the end: the GPU waits for one, and is then kept for job 4 alone
    var end = decide(new Request.Ended(1, EndSeen.exited(0), nanos++, null, 0));
    assertEquals(List.of(JobExited.class), kinds(end));
    assertEquals(Map.of(uuid(0), 4L), l.settings().keptFor());
    var read = decide(new Request.Observed(obs(2), "fake", true, nanos++));
    assertEquals(List.of(JobReserved.class), kinds(read));
    assertEquals(4L, ((JobReserved) read.events().get(0)).jobId());
  }

  @Test
  void requeueQueuesTheResumeInTheLineageAndItsDependentsFollowIt() {
    start(1);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    var dependent = spec(0).withAfter(List.of(new Dependency(1, true)));
    decide(new Request.Submit(dependent));
    preempt(null, true, 1);
    var end = ended(1, 143, 1);
    JobSubmitted resume = (JobSubmitted) end.events().stream().filter(JobSubmitted.class::isInstance).findFirst().orElseThrow();
    assertEquals(1L, resume.retryOf());
    assertTrue(resume.spec().resumesFromNewest());
    assertEquals(JobState.WAITING, l.live().get(2L).state(), "the --after-ok job is not cancelled by a preemption");
    assertEquals(resume.jobId(), l.waits().get(2L).get(0).jobId(), "it now waits for the resume");
  }

  @Test
  void aDependentOfAPreemptedJobWaitsForItsResumeAndSaysSo() {
    start(1);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(0).withAfter(List.of(new Dependency(1, false)))));
    preempt(null, false, 1);
    ended(1, 0, 1);
    assertEquals(JobState.WAITING, l.live().get(2L).state(), "--after is not met by a preemption");
    assertEquals("1 preempted", l.blocked().get(2L).brief());
    assertTrue(l.blocked().get(2L).text().contains("'gq resume 1'"));
  }

  @Test
  void aPreemptedJobIsNotAFailureForFailFast() {
    start(1);
    for (int i = 1; i <= 4; i++) {
      decide(new Request.Submit(new JobSpec(List.of("x"), "/w", Map.of(), 1, null, "g", null)));
      decide(new Request.Launched(i, leader(100 + i)));
      preempt(null, false, i);
      ended(i, 1, 1);
    }
    assertTrue(l.holds().isEmpty(), "four quick preemptions hold nothing");
  }

  @Test
  void theFreedGpusMustFitWhatTheJobForWhichTheyAreFreedNeeds() {
    long mib = 1L << 20;
    var small = new DeviceReading(0, dev.gq.core.Fixtures.uuid(0), "NVIDIA GeForce RTX 4090", 24564 * mib, 0, List.of(), null);
    var big = new DeviceReading(1, dev.gq.core.Fixtures.uuid(1), "NVIDIA H100 80GB HBM3", 81559 * mib, 0, List.of(), null);
    decide(new Request.Reconciled(Map.of(), 0));
    decide(new Request.Observed(new GpuObservation(new GpuReading(T0, List.of(small, big), null), Map.of()), "fake", true, nanos++));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1).withGpuNeed(dev.gq.core.job.GpuNeed.of(38147, List.of()))));
    assertEquals(JobState.WAITING, l.live().get(3L).state(), "both cards are taken");
    assertEquals("job 3 needs 1 GPU(s) with ≥ 37.3 GiB but only 0 of the GPUs the jobs preempted hold fit;"
        + " preempt jobs on GPUs that fit (gq gpu)", preempt(3L, false, 1).refusal());
    assertNull(preempt(3L, false, 2).refusal(), "job 2 holds the H100");
  }

  @Test
  void aSharedJobIsNotPreemptedForAnotherJobItsGpuMayKeepOtherShares() {
    start(1);
    var shared = dev.gq.core.job.GpuNeed.of(19074, List.of(), true, 0);
    decide(new Request.Submit(spec(1).withGpuNeed(shared)));
    decide(new Request.Submit(spec(1).withGpuNeed(shared)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Launched(2, leader(200)));
    decide(new Request.Submit(spec(1)));
    assertEquals(JobState.WAITING, l.live().get(3L).state());
    assertEquals("job 1 shares its GPU (--share): preempting it frees no whole GPU to give to job 3, as other shared jobs"
        + " may stay there; preempt it without --for", preempt(3L, false, 1).refusal());
    assertEquals(JobState.RUNNING, l.live().get(1L).state(), "nothing written");
    assertNull(preempt(null, false, 1).refusal(), "without --for it is preempted as any job");
  }

  @Test
  void refusedWithTheReasonAndNothingWritten() {
    start(2);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    decide(new Request.Submit(spec(2)));
    decide(new Request.Submit(spec(0).withBegin(T0.plusSeconds(3600))));
    assertTrue(preempt(null, false, 2).refusal().contains("job 2 has not started"));
    assertTrue(preempt(2L, false, 1).refusal().contains("needs 2 GPU(s) but the jobs preempted hold 1"));
    assertTrue(preempt(3L, false, 1).refusal().contains("needs no GPU"));
    assertTrue(preempt(1L, false, 1).refusal().contains("cannot make room for itself"));
    assertTrue(preempt(null, false, 9).refusal().contains("job 9 is not running"));
    decide(new Request.HoldJobs(List.of(2L), true));
    var held = decide(new Request.Preempt(new Preemptions.PreemptAsk(List.of(1L), 15, false, Duration.ofMinutes(5), 2L, false)));
    assertTrue(held.refusal().contains("may not start now"), held.refusal());
    var zero = decide(new Request.Preempt(new Preemptions.PreemptAsk(List.of(1L), 15, false, Duration.ZERO, null, false)));
    assertTrue(zero.refusal().contains("--grace"));
    assertEquals(JobState.RUNNING, l.live().get(1L).state());
    assertTrue(preempt(null, false, 1).refusal() == null);
    assertTrue(preempt(null, false, 1).refusal().contains("already being preempted"));
  }

  @Test
  void anAdoptedRunIsNotPreemptedGqCannotAskItToSave() {
    start(2);
    var who = new dev.gq.core.proc.ProcessIdentity(500, 0, 0, 77, "boot");
    l = l.apply(new JobAdopted(1, spec(1), "tag", "/out.log", who, slots(1), T0, T0));
    var d = preempt(null, false, 1);
    assertTrue(d.refusal().contains("job 1 was adopted"), d.refusal());
    assertEquals(JobState.RUNNING, l.live().get(1L).state());
  }

  @Test
  void aCancelWhilePreemptingStopsTheJobAsCancelled() {
    start(1);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    preempt(null, false, 1);
    var c = decide(new Request.Cancel(List.of(1L)));
    assertEquals(List.of(JobCancelRequested.class), kinds(c));
    ended(1, 143, 1);
    assertEquals(JobState.CANCELLED, l.recentEnd(1));
  }

  private void preemptedJobOne() {
    start(1);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Launched(1, leader(100)));
    preempt(null, false, 1);
    ended(1, 0, 1);
    assertEquals(JobState.PREEMPTED, l.recentEnd(1));
  }

  @Test
  void aRetryOfAPreemptedJobResumesIt() {
    preemptedJobOne();
    var found = Map.of(1L, holding(1, JobState.PREEMPTED, 0));
    var facts = Map.of(1L, new LineageFact(1, 1, 1, JobState.PREEMPTED));
    var retry = decide(new Request.Retry(List.of(1L), found, Set.of(), Set.of(), null, facts));
    JobSubmitted attempt = (JobSubmitted) retry.events().get(0);
    assertTrue(attempt.spec().resumesFromNewest(), "a retry of a preempted job resumes it");
    assertEquals(1L, attempt.retryOf());
  }

  @Test
  void resumeFromAGivenCheckpoint() {
    preemptedJobOne();
    var found = Map.of(1L, holding(1, JobState.PREEMPTED, 0));
    var facts = Map.of(1L, new LineageFact(1, 1, 1, JobState.PREEMPTED));
    var resume = decide(new Request.ResumeJobs(List.of(1L), found, Set.of(), "/runs/x/checkpoint-150", facts));
    JobSubmitted from = (JobSubmitted) resume.events().get(0);
    assertEquals("/runs/x/checkpoint-150", from.spec().resumeFrom());
    assertEquals(1L, from.retryOf());
    var twice = decide(new Request.ResumeJobs(List.of(1L), found, Set.of(), null, facts));
    assertTrue(twice.answer().retried().isEmpty(), "its resume is already queued");
    assertTrue(twice.answer().skipped().get(0).reason().contains("already resumed as job " + from.jobId()));
  }
}

package dev.gq.core.cluster;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.SubmitContext;
import dev.gq.core.ledger.Submissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cluster jobs in the ledger: sent, started, ended from Slurm's answers and the exit records, never placed on this machine's GPUs. */
class ClusterLedgerTest {
  static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

  static JobSpec onCluster(int gpus) {
    return new JobSpec(List.of("python", "train.py"), "/work", Map.of("PATH", "/usr/bin"), gpus, null, null, null)
        .withCluster("default");
  }

  static Ledger submitted(Ledger before, JobSpec spec) {
    Ledger l = before;
    Decision<Ledger.SubmitOutcome> d = Submissions.one(l, spec,
        new SubmitContext(T0, () -> "tag-" + before.nextId(), id -> "/logs/" + id + ".log", 1, null, Map.of(), 1000));
    assertFalse(d.refused(), d.refusal());
    for (LedgerEvent e : d.events()) l = l.apply(e);
    return l;
  }

  static Ledger apply(Ledger l, List<LedgerEvent> events) {
    for (LedgerEvent e : events) l = l.apply(e);
    return l;
  }

  static Ledger sent(Ledger l, long id, String slurmId) {
    Decision<List<Long>> d = ClusterDecisions.sent(l, Map.of(id, slurmId), T0);
    assertEquals(List.of(), d.result());
    return apply(l, d.events());
  }

  static ClusterObservation seen(Map<String, SlurmJob> jobs, Map<Long, ExitRecord> exits) {
    return new ClusterObservation("default", null, jobs, exits);
  }

  static SlurmJob slurm(String id, String state, String reason) {
    return new SlurmJob(id, state, reason, "node1");
  }

  @Test
  void aClusterJobIsNeverAmongTheJobsThatWaitForThisMachinesGpus() {
    Ledger l = submitted(Ledger.empty(), onCluster(8)); // more GPUs than this machine has: Slurm counts them
    assertEquals(List.of(), l.waiting());
    assertEquals(JobState.WAITING, l.live().get(1L).state());
    assertEquals(List.of(1L), ClusterBatches.unsent(l, java.util.Set.of()).stream().map(Job::id).toList());
  }

  @Test
  void sentThenStartedThenEndedWithTheRecordedCode() {
    Ledger l = sent(submitted(Ledger.empty(), onCluster(2)), 1, "501");
    assertEquals("501", l.settings().clusterIds().get(1L));
    assertEquals("501", l.live().get(1L).clusterId());
    assertEquals(List.of(), ClusterBatches.unsent(l, java.util.Set.of()));
    List<LedgerEvent> started = ClusterDecisions.observed(l, seen(Map.of("501", slurm("501", "RUNNING", "None")), Map.of()), T0);
    assertInstanceOf(JobClusterStarted.class, started.get(0));
    l = apply(l, started);
    assertEquals(JobState.RUNNING, l.live().get(1L).state());
    // still running: nothing new
    assertEquals(List.of(), ClusterDecisions.observed(l, seen(Map.of("501", slurm("501", "RUNNING", "None")), Map.of()), T0));
    List<LedgerEvent> ended = ClusterDecisions.observed(l, seen(Map.of("501", slurm("501", "FAILED", "NonZeroExitCode")),
        Map.of(1L, ExitRecord.exited(3))), T0);
    assertEquals(new JobExited(1, 3, null, T0, null), ended.get(0));
    l = apply(l, ended);
    assertNull(l.live().get(1L));
    assertFalse(l.settings().clusterIds().containsKey(1L), "an ended job's Slurm id leaves the ledger");
  }

  @Test
  void slurmsStatesThatEndAJobWithoutItsScriptSayingHow() {
    Ledger l = apply(sent(submitted(Ledger.empty(), onCluster(1)), 1, "7"),
        List.of(new JobClusterStarted(1, "n", T0)));
    assertInstanceOf(JobTimedOut.class, one(l, slurm("7", "TIMEOUT", "TimeLimit"), ExitRecord.exited(143)));
    JobCancelled byDependency = (JobCancelled) one(l, slurm("7", "CANCELLED", "DependencyNeverSatisfied"), null);
    assertTrue(byDependency.reason().contains("waits for"), byDependency.reason());
    assertInstanceOf(JobInterrupted.class, one(l, slurm("7", "NODE_FAIL", "None"), null));
    assertEquals(137, ((JobExited) one(l, slurm("7", "OUT_OF_MEMORY", "None"), null)).exitCode());
    // gone from squeue and no record: interrupted, never lost
    JobInterrupted gone = (JobInterrupted) ClusterDecisions.observed(l, seen(Map.of(), Map.of()), T0).get(0);
    assertTrue(gone.reason().contains("no exit record"), gone.reason());
    // gone from squeue (MinJobAge passed) with a record: the record's code
    assertEquals(new JobExited(1, 0, null, T0, null),
        ClusterDecisions.observed(l, seen(Map.of(), Map.of(1L, ExitRecord.exited(0))), T0).get(0));
  }

  private static LedgerEvent one(Ledger l, SlurmJob s, ExitRecord r) {
    List<LedgerEvent> e = ClusterDecisions.observed(l, seen(Map.of(s.id(), s), r == null ? Map.of() : Map.of(1L, r)), T0);
    assertEquals(1, e.size(), e.toString());
    return e.get(0);
  }

  @Test
  void aRetryRequeuedBySlurmWaitsAgainAndKeepsItsSlurmId() {
    Ledger l = apply(sent(submitted(Ledger.empty(), onCluster(1).withRetries(1)), 1, "9"),
        List.of(new JobClusterStarted(1, "n", T0)));
    l = apply(l, ClusterDecisions.observed(l, seen(Map.of("9", slurm("9", "PENDING", "BeginTime")), Map.of()), T0));
    assertEquals(JobState.WAITING, l.live().get(1L).state());
    assertEquals("9", l.live().get(1L).clusterId());
    assertEquals(List.of(), ClusterBatches.unsent(l, java.util.Set.of()), "a requeued job is not sent again");
  }

  @Test
  void aClusterJobsFailureIsRetriedBySlurmNotByANewAttemptHere() {
    Ledger l = apply(sent(submitted(Ledger.empty(), onCluster(1).withRetries(2)), 1, "9"),
        List.of(new JobClusterStarted(1, "n", T0)));
    List<LedgerEvent> all = dev.gq.core.ledger.Consequences.of(l, List.of(new JobExited(1, 1, null, T0, null)),
        dev.gq.core.ledger.FailFast.DEFAULT, false, new SubmitContext(T0, () -> "t", id -> "/l", 1, null, Map.of(), 100));
    assertEquals(1, all.size(), "no new attempt: " + all);
  }

  @Test
  void anUnreachableClusterIsSaidOnceAndItsJobsKeepTheirState() {
    Ledger l = sent(submitted(Ledger.empty(), onCluster(1)), 1, "5");
    var down = new ClusterObservation("default", "squeue: Unable to contact slurm controller", Map.of(), Map.of());
    List<LedgerEvent> e = ClusterDecisions.observed(l, down, T0);
    assertEquals(List.of(new ClusterUnreachable("default", "squeue: Unable to contact slurm controller", T0)), e);
    l = apply(l, e);
    assertEquals(JobState.WAITING, l.live().get(1L).state());
    assertEquals(List.of(), ClusterDecisions.observed(l, down, T0), "said once");
    List<LedgerEvent> back = ClusterDecisions.observed(l, seen(Map.of("5", slurm("5", "PENDING", "Resources")), Map.of()), T0);
    assertEquals(List.of(new ClusterReachable("default", T0)), back);
    assertTrue(apply(l, back).settings().unreachable().isEmpty());
  }

  @Test
  void cancellingASentJobAsksSlurmFirst() {
    Ledger l = sent(submitted(Ledger.empty(), onCluster(1)), 1, "5");
    assertInstanceOf(JobCancelRequested.class, l.cancel(List.of(1L), T0).get(0));
    l = apply(l, l.cancel(List.of(1L), T0));
    assertEquals(JobState.CANCELLING, l.live().get(1L).state());
    assertEquals(new JobCancelled(1, "cancelled", T0), one(l, slurm("5", "CANCELLED", "None"), null));
    // not yet sent: cancelled at once
    Ledger fresh = submitted(Ledger.empty(), onCluster(1));
    assertInstanceOf(JobCancelled.class, fresh.cancel(List.of(1L), T0).get(0));
  }

  @Test
  void aJobThatStoppedWaitingBeforeSlurmAnsweredIsNamedForCancellingThere() {
    Ledger l = submitted(Ledger.empty(), onCluster(1));
    l = apply(l, l.cancel(List.of(1L), T0));
    Decision<List<Long>> d = ClusterDecisions.sent(l, Map.of(1L, "44"), T0);
    assertEquals(List.of(), d.events());
    assertEquals(List.of(1L), d.result());
  }

  @Test
  void aJobMayNotWaitForAJobThatRunsElsewhere() {
    Ledger l = submitted(Ledger.empty(), new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null));
    var d = Submissions.one(l, onCluster(1).withAfter(List.of(new Dependency(1, true))),
        new SubmitContext(T0, () -> "t", id -> "/l", 1, null, Map.of(), 1000));
    assertTrue(d.refused());
    assertTrue(d.refusal().contains("same --to"), d.refusal());
  }

  @Test
  void aClusterJobIsNotPreempted() {
    Ledger l = apply(sent(submitted(Ledger.empty(), onCluster(1)), 1, "5"), List.of(new JobClusterStarted(1, "n", T0)));
    var d = dev.gq.core.schedule.Preemptions.decide(l, new dev.gq.core.schedule.Preemptions.PreemptAsk(List.of(1L), 15, false,
        java.time.Duration.ofMinutes(5), null, false), T0);
    assertTrue(d.refused());
    assertTrue(d.refusal().contains("Slurm cluster"), d.refusal());
  }

  @Test
  void aWaitingClusterJobIsNotChangedOrMovedButMayBeHeld() {
    Ledger l = sent(submitted(Ledger.empty(), onCluster(1)), 1, "5");
    var change = new dev.gq.core.ledger.JobChanges.Change(2, null, false, null, Map.of(), List.of());
    assertTrue(dev.gq.core.ledger.JobChanges.change(l, 1, change, 4, T0).refusal().contains("Slurm cluster"));
    assertTrue(dev.gq.core.ledger.JobChanges.toFront(l, 1, T0).refused());
    assertFalse(dev.gq.core.ledger.JobChanges.hold(l, List.of(1L), true, T0).refused());
  }
}

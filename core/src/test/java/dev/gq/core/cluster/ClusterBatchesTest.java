package dev.gq.core.cluster;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cluster jobs go to sbatch together, and when. */
class ClusterBatchesTest {
  static List<ClusterCell> cells(Ledger l) {
    List<ClusterCell> out = new ArrayList<>();
    for (var j : ClusterBatches.unsent(l, java.util.Set.of())) out.add(new ClusterCell(j.id(), j.spec(), "/l", "t", List.of()));
    return out;
  }

  @Test
  void jobsOfOneShapeShareAnArrayThrottledByTheirGroupsCap() {
    Ledger l = Ledger.empty().apply(new LedgerEvent.GroupLimitSet("sweep", 2, ClusterLedgerTest.T0));
    JobSpec cell = new JobSpec(List.of("true"), "/w", Map.of(), 1, null, "sweep", null).withCluster("default");
    for (int i = 0; i < 5; i++) l = ClusterLedgerTest.submitted(l, cell);
    l = ClusterLedgerTest.submitted(l, cell.withGpus(2)); // another shape
    List<ClusterBatches.Batch> plan = ClusterBatches.plan(l, cells(l));
    assertEquals(2, plan.size());
    assertEquals(5, plan.get(0).cells().size());
    assertEquals(2, plan.get(0).throttle());
    assertEquals(1, plan.get(1).cells().size());
  }

  @Test
  void aJobWaitsToBeSentUntilItsPrerequisiteHasASlurmIdThenGoesAlone() {
    JobSpec first = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null).withCluster("default");
    Ledger l = ClusterLedgerTest.submitted(Ledger.empty(), first);
    l = ClusterLedgerTest.submitted(l, first.withAfter(List.of(new Dependency(1, true))));
    List<ClusterBatches.Batch> plan = ClusterBatches.plan(l, cells(l));
    assertEquals(1, plan.size(), "only the first goes now");
    assertEquals(1L, plan.get(0).cells().get(0).jobId());
    l = ClusterLedgerTest.sent(l, 1, "40");
    plan = ClusterBatches.plan(l, cells(l));
    assertEquals(List.of("40"), plan.get(0).afterOk());
    assertEquals(2L, plan.get(0).cells().get(0).jobId());
  }

  @Test
  void heldJobsGoHeld() {
    JobSpec s = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, "g", null).withCluster("default");
    Ledger l = ClusterLedgerTest.submitted(Ledger.empty(), s).apply(new LedgerEvent.GroupHeld("g", "by the user", false, ClusterLedgerTest.T0));
    assertTrue(ClusterBatches.plan(l, cells(l)).get(0).held());
  }

  @Test
  void aWaitingClusterJobSaysWhereItWaits() {
    JobSpec s = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null).withCluster("default");
    Ledger l = ClusterLedgerTest.submitted(ClusterLedgerTest.submitted(Ledger.empty(), s), s);
    l = ClusterLedgerTest.sent(l, 2, "77");
    var why = ClusterBatches.waitReasons(l);
    assertEquals("to Slurm", why.get(1L).brief());
    assertEquals("Slurm 77", why.get(2L).brief());
    l = l.apply(new LedgerEvent.QueuePaused(ClusterLedgerTest.T0));
    assertEquals("queue held", ClusterBatches.waitReasons(l).get(2L).brief());
  }

  @Test
  void oneJobsReasonIsTheOneTheWholeMapGives() {
    JobSpec s = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null).withCluster("default");
    JobSpec here = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null);
    Ledger l = ClusterLedgerTest.submitted(ClusterLedgerTest.submitted(ClusterLedgerTest.submitted(Ledger.empty(), s), s), here);
    l = ClusterLedgerTest.sent(l, 2, "77");
    for (Ledger at : List.of(l, l.apply(new LedgerEvent.QueuePaused(ClusterLedgerTest.T0)))) {
      var all = ClusterBatches.waitReasons(at);
      for (var j : at.live().values()) assertEquals(all.get(j.id()), ClusterBatches.waitReason(at, j), "job " + j.id());
    }
    assertNull(ClusterBatches.waitReason(l, l.live().get(3L)), "job 3 runs here: the plan says why it waits");
  }
}

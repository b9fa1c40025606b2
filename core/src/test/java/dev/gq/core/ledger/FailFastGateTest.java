package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.free;
import static dev.gq.core.Fixtures.gpu;
import static dev.gq.core.Fixtures.leader;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.Plan;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A group never starts more jobs than could fail before fail-fast holds it. */
class FailFastGateTest {
  private int gpuCount = 4;
  private final Driver d = new Driver();
  private final Set<Long> ending = new HashSet<>();

  private long cell(String group) {
    return d.submit(new JobSpec(List.of("/nonexistent/trainer"), "/w", Map.of(), 1, null, group, null));
  }

  /** The four GPUs: FREE unless a live job holds one. */
  private List<GpuStatus> gpus() {
    Set<Integer> held = new HashSet<>();
    for (Job j : d.ledger.live().values()) if (j.state().holdsGpus()) j.gpus().forEach(s -> held.add(s.index()));
    List<GpuStatus> out = new ArrayList<>();
    for (int i = 0; i < gpuCount; i++) out.add(held.contains(i) ? gpu(i, GpuState.RESERVED) : free(i));
    return out;
  }

  private Plan plan() {
    return FailFastGate.plan(d.ledger, gpus(), d.rule, ending);
  }

  /** Persists the plan's reservations, as the Scheduler does in the same write. */
  private List<Long> place() {
    List<Long> placed = new ArrayList<>();
    for (Plan.Reservation p : plan().reservations()) {
      d.settle(List.of(new JobReserved(p.jobId(), p.gpus(), d.now)));
      placed.add(p.jobId());
    }
    return placed;
  }

  private long count(JobState s) {
    return d.written.stream().filter(e -> e instanceof JobReserved).map(e -> ((JobReserved) e).jobId())
        .filter(id -> d.state(id) == s).count();
  }

  @Test
  void aGroupStartsNoMoreJobsAtOnceThanItsCount() {
    for (int i = 0; i < 20; i++) cell("sweep");
    Plan p = plan();
    assertEquals(List.of(1L, 2L, 3L), p.reservations().stream().map(Plan.Reservation::jobId).toList());
    assertEquals("group sweep has 3 jobs starting or ending; more start once they are counted (fail-fast)",
        p.waitReasons().get(4L).text());
  }

  @Test
  void twentyCellsThatCannotStartFailOnlyTheCountBeforeTheGroupIsHeld() {
    for (int i = 0; i < 20; i++) cell("sweep");
    // Each freed GPU is offered again at once, as the Scheduler does after every ending.
    for (int round = 0; round < 40 && d.ledger.holds().isEmpty(); round++) {
      place();
      Job starting = d.ledger.live().values().stream().filter(j -> j.state() == JobState.STARTING).findFirst().orElseThrow();
      d.settle(List.of(new JobExited(starting.id(), 127, "cannot run '/nonexistent/trainer': No such file or directory", d.now)));
    }
    assertEquals(List.of(), place(), "a held group starts nothing");
    // What had started before the hold fails too.
    for (Job j : List.copyOf(d.ledger.live().values()))
      if (j.state() == JobState.STARTING) d.settle(List.of(new JobExited(j.id(), 127, "cannot run", d.now)));
    assertEquals(3, count(JobState.FAILED));
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3): "
        + "cannot run '/nonexistent/trainer': No such file or directory", d.ledger.holds().get("sweep"));
    assertEquals(17, d.ledger.waiting().size());
  }

  @Test
  void aJobThatLaunchedNoLongerCountsSoAHealthySweepFillsEveryGpu() {
    for (int i = 0; i < 8; i++) cell("sweep");
    assertEquals(List.of(1L, 2L, 3L), place());
    d.settle(List.of(new JobLaunched(1, leader(100), d.now)));
    assertEquals(List.of(4L), place());
    for (long id : List.of(2L, 3L, 4L)) d.settle(List.of(new JobLaunched(id, leader(100 * id), d.now)));
    assertEquals(4, d.ledger.live().values().stream().filter(j -> j.state() == JobState.RUNNING).count());
  }

  @Test
  void jobsWhoseEndIsOnItsWayCountUntilItIsRecorded() {
    for (int i = 0; i < 8; i++) cell("sweep");
    place();
    for (long id = 1; id <= 3; id++) d.settle(List.of(new JobLaunched(id, leader(100 * id), d.now)));
    place();
    d.settle(List.of(new JobLaunched(4, leader(400), d.now)));
    ending.addAll(List.of(2L, 3L, 4L));
    d.settle(List.of(new JobExited(1, 1, null, d.now)));
    assertEquals(List.of(), place(), "one failure counted and three on their way: no new job");
    ending.remove(2L);
    d.settle(List.of(new JobExited(2, 0, null, d.now)));
    assertEquals(List.of(5L), place(), "a success resets the run; two ends on their way leave room for one job");
  }

  @Test
  void otherGroupsAndUngroupedJobsTakeTheGpusAGroupMayNotUse() {
    for (int i = 0; i < 4; i++) cell("sweep");
    long other = cell("other"), plain = cell(null);
    List<Long> placed = place();
    assertEquals(List.of(1L, 2L, 3L, other), placed);
    assertTrue(plan().waitReasons().get(plain).text().startsWith("needs 1 GPU, 0 free"), plan().waitReasons().toString());
    assertTrue(plan().waitReasons().get(4L).text().startsWith("needs 1 GPU"), "a job that could not start anyway says why");
  }

  @Test
  void aGroupWithinItsBudgetIsNotHeldBackWithOneOverIt() {
    gpuCount = 6;
    for (int i = 0; i < 4; i++) cell("a");
    for (int i = 0; i < 3; i++) cell("b");
    assertEquals(List.of(1L, 2L, 3L, 5L, 6L, 7L), place(), "every GPU used, three of each group");
  }

  @Test
  void aGroupWithNothingOpenStartsAJobEvenAfterFailuresThatHeldNothing() {
    for (int i = 0; i < 5; i++) cell("sweep");
    place();
    for (long id = 1; id <= 3; id++)
      d.settle(List.of(new JobExited(id, 1, null, d.now.plus(Duration.ofSeconds(1)))), true);
    assertTrue(d.ledger.holds().isEmpty(), "endings concluded at start-up hold nothing");
    assertEquals(List.of(4L), place());
  }

  @Test
  void withTheRuleOffEveryFreeGpuIsUsed() {
    d.rule = FailFast.OFF;
    for (int i = 0; i < 6; i++) cell("sweep");
    assertEquals(List.of(1L, 2L, 3L, 4L), place());
  }
}

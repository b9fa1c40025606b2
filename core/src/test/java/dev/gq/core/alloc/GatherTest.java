package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When GPUs gather for a job that has waited long, and what the jobs behind it are told. */
class GatherTest {
  private static final Duration GATHER = Duration.ofMinutes(5);

  @Test
  void aSweepOfOneGpuJobsNeverGathersSoEachSaysWhatKeepsItWaiting() {
    var gpus = List.of(gpu(0, GpuState.RUNNING), gpu(1, GpuState.RUNNING));
    Plan p = Allocator.plan(List.of(waiting(1, 1), waiting(2, 1), waiting(3, 1)), gpus, Map.of(),
        new PlanRules(T0.plusSeconds(3600), GATHER, 100));
    for (long id = 1; id <= 3; id++) {
      assertEquals("GPUs busy", p.waitReasons().get(id).brief(), p.waitReasons().get(id).text());
      assertFalse(p.waitReasons().get(id).text().contains("gather"), p.waitReasons().get(id).text());
    }
  }

  @Test
  void aOneGpuJobKeptOffAFreeGpuByABookingIsNotToldThatGpusGather() {
    var gpus = List.of(gpu(0, GpuState.RUNNING), free(1));
    PlanRules rules = new PlanRules(T0.plusSeconds(3600), GATHER, 100).offering((j, g) -> g.index() != 1);
    Plan p = Allocator.plan(List.of(waiting(1, 1), waiting(2, 1)), gpus, Map.of(), rules);
    assertEquals("GPUs busy", p.waitReasons().get(1L).brief(), "so that the booking's reason can be given");
    assertEquals("GPUs busy", p.waitReasons().get(2L).brief());
  }

  @Test
  void theJobsBehindAGatheringAreToldWhichGpusAreKeptFreeForIt() {
    List<GpuStatus> gpus = List.of(free(0), gpu(1, GpuState.RUNNING), free(2), gpu(3, GpuState.RUNNING));
    Plan p = Allocator.plan(List.of(waiting(1, 4), waiting(2, 1)), gpus, Map.of(), new PlanRules(T0.plusSeconds(3600), GATHER, 100));
    assertEquals("gathering for 1", p.waitReasons().get(2L).brief());
    assertEquals("GPUs gather for job 1 (needs 4 GPUs, waiting over 5m); GPUs 0,2 are kept free for it: younger jobs wait",
        p.waitReasons().get(2L).text());
  }
}

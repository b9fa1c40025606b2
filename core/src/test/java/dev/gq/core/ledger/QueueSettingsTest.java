package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.Allocator;
import dev.gq.core.alloc.Drains;
import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A group's cap on jobs at once and drained GPUs: stored as events, kept by the ledger, kept by plans. */
class QueueSettingsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static Job waiting(long id, int gpus, String group) {
    return new Job(id, new JobSpec(List.of(), "/", Map.of(), gpus, null, group, null), JobState.WAITING, T, null, null,
        List.of(), null, null, null, null, "t" + id, null);
  }

  private static GpuStatus free(int i) {
    return new GpuStatus(i, "GPU-" + i, "H200", GpuState.FREE, null, List.of(), 0, 0, null);
  }

  @Test
  void capsAndDrainsAreSetReplacedAndLifted() {
    Ledger l = Ledger.empty().apply(new GroupLimitSet("g", 2, T)).apply(new GpuDrained("GPU-0", "notebooks", T));
    assertEquals(Map.of("g", 2), l.settings().maxRunning());
    assertEquals(Map.of("GPU-0", "notebooks"), l.settings().drained());
    l = l.apply(new GroupLimitSet("g", 5, T)).apply(new QueuePaused(T));
    assertEquals(Map.of("g", 5), l.settings().maxRunning(), "other events keep the settings");
    l = l.apply(new GroupLimitSet("g", null, T)).apply(new GpuResumed("GPU-0", T));
    assertEquals(QueueSettings.NONE, l.settings());
  }

  @Test
  void aCappedGroupStartsNoMoreThanItsRoomAndTheRestSayWhy() {
    var queue = List.of(waiting(1, 1, "g"), waiting(2, 1, "g"), waiting(3, 0, "g"), waiting(4, 1, "other"));
    var rules = new PlanRules(T, Duration.ofMinutes(5), 100, Map.of("g", 3), Map.of("g", 1));
    Plan p = Allocator.plan(queue, List.of(free(0), free(1), free(2)), Map.of(), rules);
    assertEquals(List.of(1L, 4L), p.reservations().stream().map(Plan.Reservation::jobId).toList());
    assertEquals("group g has its most jobs running at once (--max-running 3)", p.waitReasons().get(2L).text());
    assertEquals(p.waitReasons().get(2L), p.waitReasons().get(3L), "CPU-only jobs count too");
  }

  @Test
  void aDrainedFreeGpuIsDrainedAndGetsNoJobWhileABusyOneSaysNoneFollows() {
    GpuStatus running = new GpuStatus(1, "GPU-1", "H200", GpuState.RUNNING, 7L, List.of(), 0, 0, null);
    var marked = Drains.mark(List.of(free(0), running, free(2)), Map.of("GPU-0", "notebooks", "GPU-1", "maintenance"));
    assertEquals(GpuState.DRAINED, marked.get(0).state());
    assertTrue(marked.get(0).detail().contains("notebooks") && marked.get(0).detail().contains("gq gpu resume 0"));
    assertEquals(GpuState.RUNNING, marked.get(1).state());
    assertEquals(7L, marked.get(1).ownerJobId());
    assertTrue(marked.get(1).detail().contains("no new job after this"), marked.get(1).detail());
    Plan p = Allocator.plan(List.of(waiting(1, 1, null), waiting(2, 1, null)), marked, Map.of());
    assertEquals(List.of(1L), p.reservations().stream().map(Plan.Reservation::jobId).toList());
    assertEquals("GPU-2", p.reservations().get(0).gpus().get(0).uuid());
    assertTrue(p.waitReasons().get(2L).text().contains("GPU 0: drained"), p.waitReasons().get(2L).text());
  }
}

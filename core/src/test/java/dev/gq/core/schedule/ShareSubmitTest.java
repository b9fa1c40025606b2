package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.alloc.ProcessFacts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shared jobs through the Decider: a shared job without a size is refused, a group's count of jobs
 * per GPU is taken by its later GPU jobs, shared jobs are reserved together on one card, and a job
 * over its share is told once.
 */
class ShareSubmitTest {
  private static final long MIB = 1L << 20;
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;
  private final List<LedgerEvent> written = new ArrayList<>();

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(T0, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.OFF,
        Duration.ofMinutes(5), 64, 1024, DecisionContext.IDLE_AFTER);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    written.addAll(d.events());
    s = d.next();
    return d;
  }

  private void read(Map<Long, ProcessFacts> facts, DeviceReading... devices) {
    decide(new Request.Observed(new GpuObservation(new GpuReading(T0, List.of(devices), null), facts), "fake", true, nanos++));
  }

  private static DeviceReading h100(GpuProcess... ps) {
    return new DeviceReading(0, uuid(0), "NVIDIA H100 80GB HBM3", 81559 * MIB, 0, List.of(ps), null);
  }

  @Test
  void aShareWithoutASizeIsRefusedAndAGroupsCountMakesItsLaterJobsShare() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(Map.of(), h100());
    JobSpec bare = spec(1).withGpuNeed(new GpuNeed(0, List.of(), true, 0));
    assertEquals("--share needs the memory the job takes of a GPU: add --vram SIZE (e.g. --vram 20G) or --per-gpu K",
        decide(new Request.Submit(bare)).refusal());
    assertEquals("Group evals: its GPU jobs submitted from now on share their GPUs, at most 4 a GPU.",
        decide(new Request.SharePerGpu("evals", 4)).answer());
    JobSpec inGroup = new JobSpec(List.of("python", "eval.py"), "/w", Map.of(), 1, null, "evals", null);
    for (int i = 0; i < 5; i++) assertNull(decide(new Request.Submit(i == 0 ? inGroup.withGpuNeed(bare.gpuNeed()) : inGroup)).refusal());
    for (long id = 1; id <= 5; id++) assertEquals(new GpuNeed(0, List.of(), true, 4), l.live().get(id).spec().gpuNeed());
    long reserved = l.live().values().stream().filter(j -> j.state() == JobState.STARTING).count();
    assertEquals(4, reserved, "four a GPU on the one card; the fifth waits");
    assertTrue(l.live().values().stream().filter(j -> j.state() == JobState.STARTING)
        .allMatch(j -> j.gpus().get(0).uuid().equals(uuid(0))));
    assertNull(decide(new Request.Submit(inGroup.withGpuNeed(new GpuNeed(0, List.of(), true, 2)))).refusal());
    assertEquals(new GpuNeed(0, List.of(), true, 2), l.live().get(6L).spec().gpuNeed(), "its own count wins");
    decide(new Request.SharePerGpu("evals", null));
    assertNull(decide(new Request.Submit(inGroup)).refusal());
    assertNull(l.live().get(7L).spec().gpuNeed(), "after --no-per-gpu: exclusive again");
  }

  @Test
  void aJobUsingMoreThanItDeclaredIsToldOnceWhileItLives() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(Map.of(), h100());
    assertNull(decide(new Request.Submit(spec(1).withGpuNeed(GpuNeed.of(19074, List.of(), true, 0)))).refusal());
    assertEquals(JobState.STARTING, l.live().get(1L).state());
    decide(new Request.Launched(1, leader(100)));
    Map<Long, ProcessFacts> facts = Map.of(100L, inJob(100, 1));
    read(facts, h100(new GpuProcess(100, 10_000 * MIB)));
    assertTrue(written.stream().noneMatch(e -> e instanceof LedgerEvent.JobOverShare), "within its share");
    read(facts, h100(new GpuProcess(100, 30_000 * MIB)));
    read(facts, h100(new GpuProcess(100, 31_000 * MIB)));
    assertEquals(List.of(new LedgerEvent.JobOverShare(1, uuid(0), 0, 30_000, 19074, T0)),
        written.stream().filter(e -> e instanceof LedgerEvent.JobOverShare).toList(), "told once");
    assertEquals(java.util.Set.of(1L), l.settings().overTold());
  }
}

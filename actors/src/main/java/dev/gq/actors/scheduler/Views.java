package dev.gq.actors.scheduler;

import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.core.schedule.GpuRegistry;
import dev.gq.core.schedule.Reservations;
import dev.gq.core.schedule.SchedulerState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the Scheduler shows readers, computed from its stored ledger and its memory. Pure. */
final class Views {
  private Views() {}

  /**
   * The view of {@code l} at sequence number {@code seq}: the GPUs classified, the plan's wait
   * reasons (made when first read, {@link PlanReasons}), the figures.
   */
  static SchedulerView view(Ledger l, SchedulerState state, DecisionContext c, long seq, SchedulerDeps deps) {
    var registry = state.gpus();
    var gpus = registry.classified(l); // once: the plan places on the same classification
    var reasons = new PlanReasons(() -> Reservations.plan(l, state, c, gpus).waitReasons());
    return new SchedulerView(l, gpus == null ? List.of() : gpus, reasons, seq, registry.probe(), registry.fake(),
        registry.gpuError(), registry.gpuCount(), state.ready(), figures(registry), state.idle().idle(c.now(), deps.idleAfter()),
        deps.shareHeadroomMiB());
  }

  /** What a decision takes from outside: the time now, fresh tags, the daemon's settings. */
  static DecisionContext context(SchedulerDeps deps) {
    return new DecisionContext(deps.clock().instant(), System.nanoTime(), () -> UUID.randomUUID().toString(), deps::logPath,
        deps.failFast(), deps.gatherAfter(), deps.maxCpuJobs(), deps.shareHeadroomMiB(), deps.idleAfter(), deps.fair());
  }

  /** The GPUs as classified from the latest reading; none before one. */
  static List<GpuStatus> classified(Ledger l, SchedulerState state) {
    var gpus = state.gpus().classified(l);
    return gpus == null ? List.of() : gpus;
  }

  /** The total memory (MiB by UUID) of the GPUs {@code r} reserved, in the reading it was made on. */
  static Map<String, Long> totals(SchedulerState state, JobReserved r) {
    Map<String, Long> out = new HashMap<>();
    for (var d : state.gpus().lastKnown())
      if (d.error() == null && r.gpus().stream().anyMatch(s -> s.uuid().equals(d.uuid()))) out.put(d.uuid(), d.totalBytes() >> 20);
    return out;
  }

  /** Each GPU's figures in the latest reading, by UUID; none when it failed or before the first. */
  private static Map<String, GpuFigures> figures(GpuRegistry registry) {
    if (registry.latest() == null || !registry.latest().reading().ok()) return Map.of();
    Map<String, GpuFigures> out = new HashMap<>();
    registry.latest().reading().devices().forEach(d -> out.put(d.uuid(), d.figures()));
    return out;
  }
}

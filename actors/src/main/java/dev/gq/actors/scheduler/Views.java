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
import java.util.function.Supplier;

/** What the Scheduler shows readers, computed from its stored ledger and its memory. Pure. */
final class Views {
  /** Held while a view's plan is made: see {@link #oneAtATime}. */
  private static final Object PLANNING = new Object();

  private Views() {}

  /**
   * The view of {@code l} at sequence number {@code seq}: the GPUs classified and the plan's wait
   * reasons (each worked out when first asked for: everything they read is immutable), the figures.
   */
  static SchedulerView view(Ledger l, SchedulerState state, DecisionContext c, long seq, SchedulerSettings settings) {
    var registry = state.gpus();
    var classified = new Once<>(() -> registry.classified(l)); // once: the plan places on the same classification
    var reasons = new Once<>(oneAtATime(() -> Reservations.plan(l, state, c, classified.get()).waitReasons()));
    Supplier<List<GpuStatus>> gpus = () -> classified.get() == null ? List.of() : classified.get();
    return new SchedulerView(l, gpus, reasons, seq, registry.probe(), registry.fake(),
        registry.gpuError(), registry.gpuCount(), state.ready(), figures(registry), state.idle().idle(c.now(), settings.idleAfter()),
        settings.shareHeadroomMiB());
  }

  /**
   * {@code make}, run while no other view's plan is being made: a plan of a long queue takes memory
   * while it is made, and many readers at once (gq top, gq ps, the web page) must not each hold one
   * at the same time, as when the Scheduler made them all itself.
   */
  static <T> Supplier<T> oneAtATime(Supplier<T> make) {
    return () -> {
      synchronized (PLANNING) {
        return make.get();
      }
    };
  }

  /** What a decision takes from outside: the time now, fresh tags, the daemon's settings, the shared machine. */
  static DecisionContext context(SchedulerSettings s, SchedulerEffects effects) {
    return new DecisionContext(s.clock().instant(), System.nanoTime(), () -> UUID.randomUUID().toString(), s::logPath,
        s.failFast(), s.gatherAfter(), s.maxCpuJobs(), s.shareHeadroomMiB(), s.idleAfter(), effects.fair());
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

  /** A value made the first time it is asked for, by whichever thread asks first; later asks get the same. */
  private static final class Once<T> implements Supplier<T> {
    private Supplier<T> make;
    private T value;

    Once(Supplier<T> make) {
      this.make = make;
    }

    @Override
    public synchronized T get() {
      if (make != null) {
        value = make.get();
        make = null;
      }
      return value;
    }
  }
}

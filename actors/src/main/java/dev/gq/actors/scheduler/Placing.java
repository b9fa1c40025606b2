package dev.gq.actors.scheduler;

import dev.gq.core.alloc.Allocator;
import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Runs the allocator over the ledger and the latest classification, turning placements into reservations. */
final class Placing {
  private Placing() {}

  static Plan plan(Ledger l, SchedulerRuntime rt, Instant now, SchedulerDeps deps) {
    if (!rt.ready) return new Plan(List.of(), Map.of());
    long cpuActive = l.live().values().stream().filter(j -> j.spec().gpus() == 0 && j.state().active()).count();
    int room = (int) Math.max(0, deps.maxCpuJobs() - cpuActive);
    return Allocator.plan(l.waiting(), rt.classified(l), l.blocked(), new PlanRules(now, deps.gatherAfter(), room));
  }

  static List<LedgerEvent> reservations(Ledger l, SchedulerRuntime rt, Instant now, SchedulerDeps deps) {
    return plan(l, rt, now, deps).placements().stream()
        .map(p -> (LedgerEvent) new LedgerEvent.JobReserved(p.jobId(), p.gpus(), now))
        .toList();
  }
}

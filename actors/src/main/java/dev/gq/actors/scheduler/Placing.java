package dev.gq.actors.scheduler;

import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.FailFastGate;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Runs the allocator over the ledger and the latest classification, within each group's fail-fast
 * budget, turning placements into reservations.
 */
final class Placing {
  private Placing() {}

  static Plan plan(Ledger l, SchedulerRuntime rt, Instant now, SchedulerDeps deps) {
    if (!rt.ready) return new Plan(List.of(), Map.of());
    long cpuActive = 0;
    Map<String, Integer> limits = l.settings().maxRunning();
    Map<String, Integer> groupRoom = new java.util.HashMap<>(limits);
    for (var j : l.live().values()) {
      if (!j.state().active()) continue;
      if (j.spec().gpus() == 0) cpuActive++;
      String g = j.spec().group();
      if (g != null && groupRoom.containsKey(g)) groupRoom.merge(g, -1, Integer::sum);
    }
    int room = (int) Math.max(0, deps.maxCpuJobs() - cpuActive);
    return FailFastGate.plan(l, rt.classified(l), deps.failFast(), rt.ending,
        new PlanRules(now, deps.gatherAfter(), room, limits, groupRoom));
  }

  static List<LedgerEvent> reservations(Ledger l, SchedulerRuntime rt, Instant now, SchedulerDeps deps) {
    return plan(l, rt, now, deps).placements().stream()
        .map(p -> (LedgerEvent) new LedgerEvent.JobReserved(p.jobId(), p.gpus(), now))
        .toList();
  }
}

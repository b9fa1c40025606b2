package dev.gq.actors.scheduler;

import dev.gq.core.alloc.Plan;
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

  static Plan plan(Ledger l, SchedulerRuntime rt, FailFast rule) {
    if (!rt.ready) return new Plan(List.of(), Map.of());
    return FailFastGate.plan(l, rt.classified(l), rule, rt.ending);
  }

  static List<LedgerEvent> reservations(Ledger l, SchedulerRuntime rt, FailFast rule, Instant now) {
    return plan(l, rt, rule).placements().stream()
        .map(p -> (LedgerEvent) new LedgerEvent.JobReserved(p.jobId(), p.gpus(), now))
        .toList();
  }
}

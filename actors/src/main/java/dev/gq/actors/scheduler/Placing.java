package dev.gq.actors.scheduler;

import dev.gq.core.alloc.Allocator;
import dev.gq.core.alloc.Plan;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Runs the allocator over the ledger and the latest classification, turning placements into reservations. */
final class Placing {
  private Placing() {}

  static Plan plan(Ledger l, SchedulerRuntime rt, Instant now, java.time.Duration gatherAfter) {
    if (!rt.ready) return new Plan(List.of(), Map.of());
    return Allocator.plan(l.waiting(), rt.classified(l), l.blocked(), now, gatherAfter);
  }

  static List<LedgerEvent> reservations(Ledger l, SchedulerRuntime rt, Instant now, java.time.Duration gatherAfter) {
    return plan(l, rt, now, gatherAfter).placements().stream()
        .map(p -> (LedgerEvent) new LedgerEvent.JobReserved(p.jobId(), p.gpus(), now))
        .toList();
  }
}

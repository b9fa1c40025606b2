package dev.gq.actors.scheduler;

import dev.gq.core.ledger.Aftermath;
import dev.gq.core.ledger.Intake;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LineageFact;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Completes a decision before the Scheduler writes it: adds what its events entail (automatic
 * retries, fail-fast holds, dependents cancelled) and the reservations possible afterwards, and
 * gives decisions what they need from outside the ledger (time, tags, log paths, GPU count).
 */
final class Settling {
  private final SchedulerDeps deps;
  private final SchedulerRuntime rt;
  private final Clock clock;

  Settling(SchedulerDeps deps, SchedulerRuntime rt) {
    this.deps = deps;
    this.rt = rt;
    this.clock = deps.clock();
  }

  /**
   * {@code events}, what follows from them (endings concluded {@code byRecovery} hold nothing),
   * and, when {@code place} and start-up is over, the reservations possible afterwards.
   */
  List<LedgerEvent> settle(Ledger l, List<LedgerEvent> events, boolean byRecovery, boolean place) {
    return settle(l, events, byRecovery, place, System.nanoTime());
  }

  /**
   * As above, for events that end jobs found ended at {@code endedNanos}: the GPUs they free are
   * placed only on a reading taken after that moment.
   */
  List<LedgerEvent> settle(Ledger l, List<LedgerEvent> events, boolean byRecovery, boolean place, long endedNanos) {
    List<LedgerEvent> all = new ArrayList<>(Aftermath.of(l, events, deps.failFast(), byRecovery, intake(Map.of())));
    Ledger folded = l;
    for (LedgerEvent e : all) folded = folded.apply(e);
    rt.freed(l, folded, all, endedNanos);
    if (!place || !rt.ready) return all;
    all.addAll(Placing.reservations(folded, rt, deps.failFast(), clock.instant()));
    return all;
  }

  Intake intake(Map<Long, LineageFact> facts) {
    return new Intake(clock.instant(), () -> UUID.randomUUID().toString(), deps::logPath, rt.gpuCount(), rt.gpuError(), facts);
  }
}

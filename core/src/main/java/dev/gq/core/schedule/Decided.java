package dev.gq.core.schedule;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.recovery.Recovery;
import java.util.List;
import java.util.Map;

/**
 * What {@link Decider#decide} returns: the events to persist in one write (the request's own, what
 * follows from them, and the reservations possible afterwards), or a refusal with the one line to
 * show; the answer; the Scheduler's next unpersisted state; and the effects to run once the events
 * are stored: ask the GPU watcher for a reading now ({@code readGpus}), reconcile these jobs
 * ({@code reconcile}: a ledger of only them, or null), give a runner to each job of {@code watch}
 * whose verdict says its processes still run and that has none, and let requests in: start-up is
 * over ({@code readied}).
 */
public record Decided<R>(List<LedgerEvent> events, String refusal, R answer, SchedulerState next, boolean readGpus,
    Ledger reconcile, Map<Long, Recovery.Verdict> watch, boolean readied) {

  public Decided {
    events = List.copyOf(events);
    watch = Map.copyOf(watch);
  }

  Decided(List<LedgerEvent> events, String refusal, R answer, SchedulerState next, boolean readGpus, Ledger reconcile) {
    this(events, refusal, answer, next, readGpus, reconcile, Map.of(), false);
  }

  public boolean refused() {
    return refusal != null;
  }

  static <R> Decided<R> nothing(SchedulerState s) {
    return new Decided<>(List.of(), null, null, s, false, null);
  }
}

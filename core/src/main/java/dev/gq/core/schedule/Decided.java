package dev.gq.core.schedule;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.List;

/**
 * What {@link Decider#decide} returns: the events to persist in one write (the request's own, what
 * follows from them, and the reservations possible afterwards), or a refusal with the one line to
 * show; the answer; the Scheduler's next unpersisted state; and the effects to run once the events
 * are stored: ask the GPU watcher for a reading now ({@code readGpus}), reconcile these jobs
 * ({@code reconcile}: a ledger of only them, or null), start-up is over ({@code readied}).
 */
public record Decided<R>(List<LedgerEvent> events, String refusal, R answer, SchedulerState next, boolean readGpus,
    Ledger reconcile, boolean readied) {

  public Decided {
    events = List.copyOf(events);
  }

  public boolean refused() {
    return refusal != null;
  }

  static <R> Decided<R> nothing(SchedulerState s) {
    return new Decided<>(List.of(), null, null, s, false, null, false);
  }
}

package dev.gq.core.schedule;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything that arrived while the journal was busy, decided in one step and written in one
 * transaction. The requests are decided in arrival order, each on the ledger and the state the ones
 * before it leave, exactly as if they had come one by one; what they decide is written together.
 * {@code decided}: each request's decision, in order; {@code after}: the ledger once its events (and
 * those before) are stored, where its effects run; {@code events}: all of them, in order, for the one
 * write; {@code next}: the state once the write is stored. Pure.
 */
public record DecidedBatch(List<Decided<?>> decided, List<Ledger> after, List<LedgerEvent> events, SchedulerState next) {

  public DecidedBatch {
    decided = List.copyOf(decided);
    after = List.copyOf(after);
    events = List.copyOf(events);
  }

  /** Decides {@code requests} in order, as {@link Decider#decide} would one by one, at the one moment of {@code c}. */
  public static DecidedBatch decide(Ledger l, SchedulerState s, List<? extends Request<?>> requests, DecisionContext c) {
    List<Decided<?>> decided = new ArrayList<>(requests.size());
    List<Ledger> after = new ArrayList<>(requests.size());
    List<LedgerEvent> events = new ArrayList<>();
    Ledger cur = l;
    SchedulerState state = s;
    for (Request<?> r : requests) {
      Decided<?> d = Decider.decide(cur, state, r, c);
      for (LedgerEvent e : d.events()) cur = cur.apply(e);
      state = d.next();
      events.addAll(d.events());
      decided.add(d);
      after.add(cur);
    }
    return new DecidedBatch(decided, after, events, state);
  }

  /** Whether nothing is to be written (every request refused or answered from memory). */
  public boolean nothingToWrite() {
    return events.isEmpty();
  }

  /** The ledger once the whole write is stored. */
  public Ledger ledger(Ledger before) {
    return after.isEmpty() ? before : after.get(after.size() - 1);
  }
}

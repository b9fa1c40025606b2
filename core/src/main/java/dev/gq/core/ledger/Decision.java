package dev.gq.core.ledger;

import java.util.List;

/**
 * What the Ledger decided for one request: the events to persist, or a refusal with the one line
 * to show, plus a result the caller replies with. Pure data; nothing has happened yet.
 */
public record Decision<R>(List<LedgerEvent> events, String refusal, R result) {

  public Decision {
    events = List.copyOf(events);
  }

  public static <R> Decision<R> accept(List<LedgerEvent> events, R result) {
    return new Decision<>(events, null, result);
  }

  public static <R> Decision<R> refuse(String reason) {
    return new Decision<>(List.of(), reason, null);
  }

  public boolean refused() {
    return refusal != null;
  }
}

package dev.gq.core.ledger;

/**
 * What the queue said of a job when it was submitted, in the submit's own answer (no second question):
 * whether the held queue keeps it waiting ({@code queueHeld}), why its group is held ({@code groupHold},
 * null when it is not), and the line saying its group's cap was set in the same write ({@code capLine},
 * null when the submit set none or the cap was already so).
 */
public record Queueing(boolean queueHeld, String groupHold, String capLine) {
  /** Nothing holds the job, no cap was set. */
  public static final Queueing FREE = new Queueing(false, null, null);
}

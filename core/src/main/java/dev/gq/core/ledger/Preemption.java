package dev.gq.core.ledger;

import java.time.Duration;
import java.time.Instant;

/**
 * A preemption under way, as the user asked for it: the signal that asks the job to save and stop
 * ({@code signal}, e.g. 15), sent to its main process or, with {@code group}, to its whole process
 * group; how long it may take before it is stopped as a cancel stops a job ({@code grace}, counted
 * from {@code at}); the waiting job its GPUs go to once it has stopped ({@code forJob}, null: none);
 * and whether its resume joins the queue at once ({@code requeue}).
 */
public record Preemption(int signal, boolean group, Duration grace, Long forJob, boolean requeue, Instant at) {

  /** The signal's name without "SIG": TERM, INT, USR1, USR2, or its number. */
  public String signalName() {
    return signalName(signal);
  }

  /** {@code signal}'s name without "SIG": TERM, INT, USR1, USR2, HUP, or its number. */
  public static String signalName(int signal) {
    return switch (signal) {
      case 15 -> "TERM";
      case 2 -> "INT";
      case 10 -> "USR1";
      case 12 -> "USR2";
      case 1 -> "HUP";
      default -> Integer.toString(signal);
    };
  }

  /** The moment the grace period ends and the job is stopped. */
  public Instant deadline() {
    return at.plus(grace);
  }
}

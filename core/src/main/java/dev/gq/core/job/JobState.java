package dev.gq.core.job;

/**
 * A job's state. WAITING → STARTING (reserved) → RUNNING → DONE | FAILED; CANCELLING while a
 * cancel is under way; CANCELLED, ORPHANED (its GPU vanished), INTERRUPTED (reboot, or gone with
 * no exit status), TIMEOUT (stopped at its time limit), EXITED (an adopted process ended; its exit
 * status cannot be known, so it is neither DONE nor FAILED). HELD is not a state: it is how `gq ps`
 * shows a WAITING job of a held group.
 */
public enum JobState {
  WAITING, STARTING, RUNNING, CANCELLING, DONE, FAILED, CANCELLED, ORPHANED, INTERRUPTED, TIMEOUT,
  EXITED;

  /** Ended for good: DONE, FAILED, CANCELLED, INTERRUPTED, TIMEOUT, EXITED. ORPHANED still holds its GPUs, so it is not. */
  public boolean terminal() {
    return this == DONE || this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT
        || this == EXITED;
  }

  /** Ended without success, so its key may be used again and it may be retried: FAILED, CANCELLED, INTERRUPTED, TIMEOUT. */
  public boolean unsuccessful() {
    return this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT;
  }

  /** Has (or may have) processes: STARTING, RUNNING, CANCELLING, ORPHANED. */
  public boolean active() {
    return this == STARTING || this == RUNNING || this == CANCELLING || this == ORPHANED;
  }

  /** Holds GPU reservations: the active states. */
  public boolean holdsGpus() {
    return active();
  }
}

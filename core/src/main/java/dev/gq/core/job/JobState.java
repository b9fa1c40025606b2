package dev.gq.core.job;

/**
 * A job's state. WAITING → STARTING (reserved) → RUNNING → DONE | FAILED; CANCELLING while a
 * cancel is under way; CANCELLED, ORPHANED (its GPU vanished), INTERRUPTED (reboot, or gone with
 * no exit status), TIMEOUT (stopped at its time limit); PREEMPTING while a preemption's signal
 * gives it time to save (it keeps its GPUs), then PREEMPTED: stopped to make room, not a failure,
 * to be continued by {@code gq resume} as a new attempt; EXITED (an adopted process ended; its exit
 * status cannot be known, so it is neither DONE nor FAILED). HELD is not a state: it is how `gq ps`
 * shows a WAITING job of a held group.
 */
public enum JobState {
  WAITING, STARTING, RUNNING, CANCELLING, DONE, FAILED, CANCELLED, ORPHANED, INTERRUPTED, TIMEOUT, PREEMPTING, PREEMPTED,
  EXITED;

  /**
   * Ended for good: DONE, FAILED, CANCELLED, INTERRUPTED, TIMEOUT, PREEMPTED, EXITED. ORPHANED still
   * holds its GPUs, so it is not.
   */
  public boolean terminal() {
    return this == DONE || this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT
        || this == PREEMPTED || this == EXITED;
  }

  /** Ended without success, so its key may be used again and it may be retried: FAILED, CANCELLED, INTERRUPTED, TIMEOUT. */
  public boolean unsuccessful() {
    return this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT;
  }

  /** Has (or may have) processes: STARTING, RUNNING, CANCELLING, PREEMPTING, ORPHANED. */
  public boolean active() {
    return this == STARTING || this == RUNNING || this == CANCELLING || this == PREEMPTING || this == ORPHANED;
  }

  /** Being stopped on request, its runner's signals under way: CANCELLING or PREEMPTING. */
  public boolean stopping() {
    return this == CANCELLING || this == PREEMPTING;
  }

  /** Holds GPU reservations: the active states. */
  public boolean holdsGpus() {
    return active();
  }
}

package dev.gq.core.job;

/**
 * A job's state. WAITING → STARTING (reserved) → RUNNING → DONE | FAILED; CANCELLING while a
 * cancel is under way; CANCELLED, ORPHANED (its GPU vanished), INTERRUPTED (reboot, or gone with
 * no exit status). HELD is not a state: it is how `gq ps` shows a WAITING job of a held group.
 */
public enum JobState {
  WAITING, STARTING, RUNNING, CANCELLING, DONE, FAILED, CANCELLED, ORPHANED, INTERRUPTED;

  /** Ended for good: DONE, FAILED, CANCELLED, INTERRUPTED. ORPHANED still holds its GPUs, so it is not. */
  public boolean terminal() {
    return this == DONE || this == FAILED || this == CANCELLED || this == INTERRUPTED;
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

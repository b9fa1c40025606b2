package dev.gq.actors.notify;

/**
 * When the notifier stores its cursor: at once after an event that called for a message or changed
 * its memory, and otherwise once {@code spacingNanos} have passed since the last time it was stored
(at the next event or the notifier's next tick) and when the notifier stops. A
 * busy queue stores a journal write a few times a second; writing the cursor file (a synced
 * temporary file and a rename) after each of them cost more than deciding their messages. The
 * events a crash leaves after the stored cursor called for nothing and left the memory as it was,
 * so deciding them again after the restart sends what it would have sent then: at least once, as
 * before.
 */
final class CursorSaves {
  private final long spacingNanos;
  private long savedAt;
  private boolean pending;

  CursorSaves(long spacingNanos, long nowNanos) {
    this.spacingNanos = spacingNanos;
    this.savedAt = nowNanos - spacingNanos;
  }

  /** One event decided: whether the cursor must be stored now. */
  boolean afterEvent(boolean changed, long nowNanos) {
    pending = true;
    return changed || nowNanos - savedAt >= spacingNanos;
  }

  /** Whether a cursor moved past events that changed nothing is still to be stored. */
  boolean pending() {
    return pending;
  }

  /** Whether such a cursor has waited long enough (the notifier looks at every tick). */
  boolean due(long nowNanos) {
    return pending && nowNanos - savedAt >= spacingNanos;
  }

  void saved(long nowNanos) {
    pending = false;
    savedAt = nowNanos;
  }
}

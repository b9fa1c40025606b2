package dev.gq.actors.notify;

/**
 * When the notifier stores its cursor (and its memory, always the pair that deciding the events up
 * to the cursor left): at once after an event whose messages were delivered, so that they are not
 * sent again, and otherwise once {@code spacingNanos} have passed since it was last stored (at the
 * next event or the notifier's next tick) and when the notifier stops. A busy queue stores a
 * journal write a few times a second; a synced cursor file after each cost more than deciding
 * their messages. A crash leaves after the stored cursor only events that called for no message;
 * deciding them again from the stored memory after the restart rebuilds the same memory and sends
 * what they call for then: at least once, as before.
 */
final class CursorSaves {
  private final long spacingNanos;
  private long savedAt;
  private boolean pending;

  CursorSaves(long spacingNanos, long nowNanos) {
    this.spacingNanos = spacingNanos;
    this.savedAt = nowNanos - spacingNanos;
  }

  /** One event decided ({@code delivered}: it called for messages): whether the cursor must be stored now. */
  boolean afterEvent(boolean delivered, long nowNanos) {
    pending = true;
    return delivered || nowNanos - savedAt >= spacingNanos;
  }

  /** Whether a cursor moved past events that called for nothing is still to be stored. */
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

package dev.gq.actors.notify;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How each target's deliveries went since the daemon started: delivered and failed counts (a
 * failure is a notice given up after its retries), the last failure's reason and time, and which
 * are down (their last notice was given up). Written by
 * the notifier's thread, read by {@code gq notify list} and {@code gq daemon status}.
 */
final class Health {
  record Of(long delivered, long failed, String lastError, Instant lastErrorAt) {
    static final Of NONE = new Of(0, 0, null, null);
  }

  private final Map<String, Of> byTarget = new ConcurrentHashMap<>();
  /** Targets whose last notice was given up: tried once per notice until one gets through. */
  private final Set<String> down = ConcurrentHashMap.newKeySet();

  void delivered(String target) {
    down.remove(target);
    byTarget.merge(target, new Of(1, 0, null, null), (a, b) -> new Of(a.delivered() + 1, a.failed(), a.lastError(), a.lastErrorAt()));
  }

  void failed(String target, String why, Instant at) {
    down.add(target);
    byTarget.merge(target, new Of(0, 1, why, at), (a, b) -> new Of(a.delivered(), a.failed() + 1, why, at));
  }

  /** Whether {@code target}'s last notice was given up (and none has got through since). */
  boolean down(String target) {
    return down.contains(target);
  }

  Of of(String target) {
    return byTarget.getOrDefault(target, Of.NONE);
  }
}

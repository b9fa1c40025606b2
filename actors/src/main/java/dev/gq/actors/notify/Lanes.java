package dev.gq.actors.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One delivery lane per target: a thread of its own that sends the target its messages in the
 * order they were handed over, so that a target that is slow or down delays only its own messages,
 * never another target's. Each lane remembers when its oldest unsent message was handed over, for
 * {@code gq daemon status}. {@link #stop} ends every lane (their unsent messages are sent again
 * after a restart); a later {@link #submit} starts a new one.
 */
final class Lanes {
  /** Work for one lane; may block, and ends early when interrupted. */
  interface Work {
    void run() throws InterruptedException;
  }

  private record Lane(ExecutorService thread, ConcurrentLinkedDeque<Instant> unsent) {}

  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
  private final Clock clock;

  Lanes(Clock clock) {
    this.clock = clock;
  }

  /** Hands {@code work} to {@code target}'s lane; completes once it ran (or failed). */
  CompletableFuture<Void> submit(String target, Work work) {
    Lane lane = lanes.computeIfAbsent(target, Lanes::start);
    Instant handed = clock.instant();
    lane.unsent().addLast(handed);
    return CompletableFuture.runAsync(() -> {
      try {
        work.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CompletionException(e);
      } finally {
        lane.unsent().removeFirstOccurrence(handed);
      }
    }, lane.thread());
  }

  /** How many handed-over messages {@code target} has not had yet, and for how long the oldest has waited. */
  record Lag(int unsent, Duration oldest) {
    static final Lag NONE = new Lag(0, Duration.ZERO);
  }

  Lag lag(String target) {
    Lane lane = lanes.get(target);
    Instant first = lane == null ? null : lane.unsent().peekFirst();
    if (first == null) return Lag.NONE;
    return new Lag(lane.unsent().size(), Duration.between(first, clock.instant()));
  }

  void stop() {
    lanes.values().forEach(l -> l.thread().shutdownNow());
    lanes.clear();
  }

  private static Lane start(String target) {
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "gq-notify-" + target.replaceAll("[^A-Za-z0-9._-]", "_"));
      t.setDaemon(true);
      return t;
    });
    return new Lane(thread, new ConcurrentLinkedDeque<>());
  }
}

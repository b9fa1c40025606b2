package dev.gq.actors.fair;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Hands the newest of the values it is given to {@code action}, on {@code executor}, at most once
 * per {@code spacingNanos}: the first at once, those that come sooner after wait for the end of the
 * spacing and only the newest of them is handed over. A busy queue changes its counts at every
 * decision; the files other daemons read them from need not follow each one.
 */
final class Spaced<T> {
  private final long spacingNanos;
  private final Executor executor;
  private final Consumer<T> action;
  private final AtomicReference<T> newest = new AtomicReference<>();
  private final AtomicBoolean pending = new AtomicBoolean();
  private volatile long lastNanos;
  private volatile boolean ran;

  Spaced(long spacingNanos, Executor executor, Consumer<T> action) {
    this.spacingNanos = spacingNanos;
    this.executor = executor;
    this.action = action;
  }

  void hand(T value) {
    newest.set(value);
    if (!pending.compareAndSet(false, true)) return; // the run on its way takes the newest
    long wait = ran ? lastNanos + spacingNanos - System.nanoTime() : 0;
    Executor on = wait <= 0 ? executor : CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS, executor);
    on.execute(this::run);
  }

  private void run() {
    pending.set(false);
    lastNanos = System.nanoTime();
    ran = true;
    action.accept(newest.get());
  }
}

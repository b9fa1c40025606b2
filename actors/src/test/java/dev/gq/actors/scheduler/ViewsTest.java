package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Views' plans are made one at a time, whichever views' readers ask. */
class ViewsTest {
  @Test
  void aSecondViewsPlanWaitsUntilTheFirstIsMade() throws Exception {
    AtomicInteger entered = new AtomicInteger();
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Supplier<String> first = Views.oneAtATime(() -> {
      entered.incrementAndGet();
      inside.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return "first";
    });
    Supplier<String> second = Views.oneAtATime(() -> {
      entered.incrementAndGet();
      return "second";
    });
    String[] got = new String[2];
    Thread a = new Thread(() -> got[0] = first.get());
    Thread b = new Thread(() -> got[1] = second.get());
    a.start();
    assertEquals(true, inside.await(30, TimeUnit.SECONDS));
    b.start();
    // the second reader blocks on the lock: its plan is not begun while the first is made
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (b.getState() != Thread.State.BLOCKED && b.isAlive() && System.nanoTime() < end) Thread.onSpinWait();
    assertEquals(Thread.State.BLOCKED, b.getState());
    assertEquals(1, entered.get(), "one plan under way");
    release.countDown();
    a.join(30_000);
    b.join(30_000);
    assertEquals(2, entered.get());
    assertEquals("first", got[0]);
    assertEquals("second", got[1]);
  }
}

package dev.gq.actors.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Values handed faster than the spacing: the first goes at once, then only the newest, and the last is never lost. */
class SpacedTest {
  @Test
  void theFirstValueGoesAtOnceAndThoseWithinTheSpacingAfterItAsTheNewestOnly() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      List<Integer> got = new CopyOnWriteArrayList<>();
      Spaced<Integer> s = new Spaced<>(TimeUnit.SECONDS.toNanos(1), pool, got::add);
      s.hand(1);
      waitFor(() -> !got.isEmpty());
      assertEquals(List.of(1), got, "the first goes at once");
      for (int i = 2; i <= 100; i++) s.hand(i);
      waitFor(() -> got.size() > 1);
      assertEquals(List.of(1, 100), got, "after the spacing, only the newest");
    } finally {
      pool.shutdownNow();
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier done) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean() && System.nanoTime() < until) Thread.sleep(5);
    assertTrue(done.getAsBoolean(), "within 10 s");
  }

  @Test
  void aValueAfterTheSpacingGoesAtOnce() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      List<String> got = new CopyOnWriteArrayList<>();
      Spaced<String> s = new Spaced<>(0, pool, got::add);
      s.hand("a");
      pool.submit(() -> {}).get();
      s.hand("b");
      pool.submit(() -> {}).get();
      assertEquals(List.of("a", "b"), got);
    } finally {
      pool.shutdownNow();
    }
  }
}

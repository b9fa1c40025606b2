package dev.gq.actors.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Callers that ask while a reading is being taken share the next one; none is answered by a reading
 * begun before it asked.
 */
class FreshReadingsTest {
  @Test
  void callersThatAskDuringAReadingShareTheNextAndNeverGetTheOneInProgress() throws Exception {
    AtomicInteger taken = new AtomicInteger();
    CountDownLatch firstBegun = new CountDownLatch(1), release = new CountDownLatch(1);
    FreshReadings<Integer> r = new FreshReadings<>(() -> {
      int n = taken.incrementAndGet();
      if (n == 1) {
        firstBegun.countDown();
        await(release);
      }
      return n;
    });
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      CompletableFuture<Integer> first = CompletableFuture.supplyAsync(r, pool);
      assertTrue(firstBegun.await(10, TimeUnit.SECONDS));
      // four callers ask while reading 1 is being taken: each needs one begun after it asked
      List<CompletableFuture<Integer>> later = new ArrayList<>();
      for (int i = 0; i < 4; i++) later.add(CompletableFuture.supplyAsync(r, pool));
      while (r.waiting() < 4) Thread.onSpinWait();
      release.countDown();
      assertEquals(1, first.get(10, TimeUnit.SECONDS));
      for (var f : later) assertEquals(2, f.get(10, TimeUnit.SECONDS), "the next reading, shared");
      assertEquals(2, taken.get(), "two readings for five callers");
      assertEquals(3, r.get(), "a caller after it gets a new one");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedReadingFailsForItsCallersAndTheNextIsTakenAgain() {
    AtomicInteger taken = new AtomicInteger();
    FreshReadings<Integer> r = new FreshReadings<>(() -> {
      if (taken.incrementAndGet() == 1) throw new IllegalStateException("no reading");
      return taken.get();
    });
    assertThrows(IllegalStateException.class, r::get);
    assertEquals(2, r.get());
  }

  @Test
  void aReadingThatThrowsAnErrorStillLetsTheNextBeTaken() {
    AtomicInteger taken = new AtomicInteger();
    FreshReadings<Integer> r = new FreshReadings<>(() -> {
      if (taken.incrementAndGet() == 1) throw new AssertionError("broken probe");
      return taken.get();
    });
    assertThrows(AssertionError.class, r::get);
    assertEquals(2, r.get(), "not left waiting on the broken reading");
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.WaitReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A view's wait reasons are planned when first read, once, and not at all when never read. */
class PlanReasonsTest {
  @Test
  void theReasonsArePlannedOnceWhenFirstReadAndNeverWhenNotRead() {
    AtomicInteger plans = new AtomicInteger();
    Map<Long, WaitReason> planned = Map.of(7L, new WaitReason("queue held", "the queue is held"));
    PlanReasons reasons = new PlanReasons(() -> {
      plans.incrementAndGet();
      return planned;
    });
    assertFalse(reasons.made());
    assertEquals(0, plans.get(), "made with the view, not planned");
    assertEquals("queue held", reasons.get(7L).brief());
    assertEquals(planned, reasons);
    assertEquals(1, reasons.size());
    assertTrue(reasons.containsKey(7L));
    assertTrue(reasons.made());
    assertEquals(1, plans.get(), "planned once");
  }

  @Test
  void oneViewsPlanIsMadeAtATime() throws Exception {
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      PlanReasons reasons = new PlanReasons(() -> {
        most.accumulateAndGet(now.incrementAndGet(), Math::max);
        for (int k = 0; k < 200_000; k++) Thread.onSpinWait();
        now.decrementAndGet();
        return Map.of();
      });
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        reasons.size();
      });
      t.start();
      readers.add(t);
    }
    go.countDown();
    for (Thread t : readers) t.join(30_000);
    assertEquals(1, most.get(), "plans made at once");
  }
}

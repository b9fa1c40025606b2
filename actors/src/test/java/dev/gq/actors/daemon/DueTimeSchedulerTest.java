package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.dispatch.ExecutionContexts;
import org.apache.pekko.event.NoLogging;
import org.junit.jupiter.api.Test;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

class DueTimeSchedulerTest {
  private static final ExecutionContext HERE = ExecutionContexts.fromExecutor(Runnable::run);
  private static final FiniteDuration HOUR = FiniteDuration.apply(1, TimeUnit.HOURS);

  /** A scheduler whose timer thread the test can look at. */
  private static final class Watched {
    final AtomicReference<Thread> thread = new AtomicReference<>();
    final DueTimeScheduler scheduler = new DueTimeScheduler(ConfigFactory.empty(), NoLogging.getInstance(), r -> {
      Thread t = new Thread(r, "test-timers");
      t.setDaemon(true);
      thread.set(t);
      return t;
    });

    /** Waits until the timer thread is in {@code state}; fails if it is not within 10 s. */
    void awaitThread(Thread.State state) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (thread.get() == null || thread.get().getState() != state) {
        if (System.nanoTime() > deadline) fail("the timer thread is " + thread.get().getState() + ", not " + state);
        Thread.sleep(5);
      }
    }
  }

  @Test
  void theTimerThreadSleepsWithoutATimeoutWhileNoTimerIsDueAndUntilTheNextOneWhenOneIs() throws Exception {
    Watched w = new Watched();
    CountDownLatch ran = new CountDownLatch(1);
    w.scheduler.scheduleOnce(FiniteDuration.Zero(), ran::countDown, HERE);
    assertTrue(ran.await(10, TimeUnit.SECONDS));
    // nothing scheduled: parked with no timeout, so it does not wake until a timer is asked for
    w.awaitThread(Thread.State.WAITING);
    Cancellable later = w.scheduler.scheduleOnce(HOUR, () -> fail("cancelled"), HERE);
    w.awaitThread(Thread.State.TIMED_WAITING);
    assertTrue(later.cancel());
    assertTrue(later.isCancelled());
    // a cancelled timer (an answered ask's timeout) leaves at once, and with it the timed wake-up
    w.scheduler.scheduleOnce(FiniteDuration.Zero(), () -> {}, HERE);
    w.awaitThread(Thread.State.WAITING);
    w.scheduler.close();
  }

  @Test
  void aTimerAtAFixedRateRunsAgainUntilCancelled() throws Exception {
    Watched w = new Watched();
    CountDownLatch three = new CountDownLatch(3);
    Cancellable c = w.scheduler.schedule(FiniteDuration.Zero(), FiniteDuration.apply(1, TimeUnit.MILLISECONDS),
        three::countDown, HERE);
    assertTrue(three.await(10, TimeUnit.SECONDS));
    assertTrue(c.cancel());
    assertFalse(c.cancel(), "cancelled once");
    w.scheduler.close();
  }

  @Test
  void aNonPositiveIntervalIsRefused() {
    Watched w = new Watched();
    assertThrows(IllegalArgumentException.class, () -> w.scheduler.schedule(HOUR, FiniteDuration.Zero(), () -> {}, HERE));
    w.scheduler.close();
  }

  @Test
  void atCloseOnlyTheTimersMarkedToRunAtCloseRunAndNoTimerIsTakenAfter() {
    Watched w = new Watched();
    AtomicBoolean marked = new AtomicBoolean();
    AtomicBoolean plain = new AtomicBoolean();
    class AtClose implements Runnable, Scheduler.TaskRunOnClose {
      @Override
      public void run() {
        marked.set(true);
      }
    }
    w.scheduler.scheduleOnce(HOUR, new AtClose(), HERE);
    w.scheduler.scheduleOnce(HOUR, () -> plain.set(true), HERE);
    w.scheduler.close();
    assertTrue(marked.get());
    assertFalse(plain.get());
    // the exception Pekko's dispatchers expect when they ask for their shutdown timer after the system's stop
    assertThrows(IllegalStateException.class, () -> w.scheduler.scheduleOnce(HOUR, () -> {}, HERE));
  }

  private record Echo(String text, ActorRef<String> replyTo) {}

  @Test
  void theDaemonsActorSystemRunsItsTimersAndAsksOnIt() throws Exception {
    ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseResources("gq-daemon.conf")
        .withFallback(ConfigFactory.load()));
    try {
      assertInstanceOf(DueTimeScheduler.class, kit.system().classicSystem().scheduler());
      TestProbe<String> probe = kit.createTestProbe();
      kit.spawn(Behaviors.<String>withTimers(t -> {
        t.startTimerWithFixedDelay("beat", Duration.ofMillis(20));
        return Behaviors.receiveMessage(m -> {
          probe.ref().tell(m);
          return Behaviors.same();
        });
      }));
      probe.expectMessage("beat");
      probe.expectMessage("beat");
      ActorRef<Echo> echo = kit.spawn(Behaviors.receiveMessage(m -> {
        m.replyTo().tell(m.text());
        return Behaviors.same();
      }));
      String answer = AskPattern.<Echo, String>ask(echo, r -> new Echo("hi", r), Duration.ofSeconds(10),
          kit.system().scheduler()).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertEquals("hi", answer);
    } finally {
      kit.shutdownTestKit();
    }
  }
}

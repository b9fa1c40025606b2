package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Part;
import dev.gq.actors.health.PartHealth;
import dev.gq.actors.health.Supervision;
import dev.gq.core.health.PartStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guardian's supervision of the daemon's parts: a part that fails is started again after a
 * back-off, with its failure and restarts shown; one that cannot be started again, or fails too
 * often, stops the daemon with the line that says why.
 */
class GuardianSupervisionTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final Supervision.Backoff QUICK =
      new Supervision.Backoff(Duration.ofMillis(10), Duration.ofMillis(50), 2, Duration.ofMinutes(1));

  @TempDir Path faultDir;

  private final PartHealth health = new PartHealth(Clock.systemUTC());
  private final List<String> stops = new CopyOnWriteArrayList<>();
  private final AtomicInteger starts = new AtomicInteger();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  /** A message to the test part: do a unit of work and answer, or fail. */
  record Work(boolean fail, ActorRef<Integer> replyTo) {}

  /** A part that answers with how many times it was started, beating after each unit of work. */
  private Behavior<Work> part(Beat beat) {
    return Behaviors.setup(ctx -> {
      int start = starts.incrementAndGet();
      return Behaviors.receiveMessage(w -> {
        if (w.fail()) throw new IllegalStateException("disk on fire\nand a second line");
        beat.worked();
        w.replyTo().tell(start);
        return Behaviors.same();
      });
    });
  }

  /** Spawns {@code part} under the guardian's supervision and watch; returns its reference. */
  private ActorRef<Work> supervised(Part part, Faults faults) {
    TestProbe<ActorRef<Work>> ref = KIT.createTestProbe();
    KIT.spawn(Behaviors.<Void>setup(ctx -> {
      Map<ActorRef<?>, Part> watched = new HashMap<>();
      ref.ref().tell(Guardian.spawnPart(ctx, part,
          Supervision.supervised(part, part(health.beat(part)), health, faults, QUICK), Props.empty(), watched));
      return Guardian.watching(health, QUICK, stops::add, watched);
    }));
    return ref.receiveMessage();
  }

  private PartStatus status(Part p) {
    return health.status().stream().filter(s -> s.part().equals(p.text())).findFirst().orElseThrow();
  }

  @Test
  void aPartThatFailsIsStartedAgainAndSaysSo() {
    ActorRef<Work> watcher = supervised(Part.GPU_WATCHER, Faults.NONE);
    TestProbe<Integer> replies = KIT.createTestProbe();
    watcher.tell(new Work(false, replies.ref()));
    assertEquals(1, replies.receiveMessage());
    watcher.tell(new Work(true, replies.ref()));
    replies.awaitAssert(() -> {
      assertEquals(1, status(Part.GPU_WATCHER).restarts());
      return null;
    });
    assertEquals("disk on fire", status(Part.GPU_WATCHER).problem());
    // the part that answers now is a new one, and its work shows again
    watcher.tell(new Work(false, replies.ref()));
    assertEquals(2, replies.receiveMessage(Duration.ofSeconds(5)));
    PartStatus now = status(Part.GPU_WATCHER);
    assertEquals(PartStatus.State.OK, now.state());
    assertTrue(now.line(health.now()).startsWith("gpu watcher: ok, last reading "), now.line(health.now()));
    assertTrue(now.line(health.now()).endsWith(", restarted 1 time"), now.line(health.now()));
    assertEquals(List.of(), stops);
  }

  @Test
  void aFailureInjectedThroughTheTestHookIsSurvivedOnce() throws Exception {
    ActorRef<Work> history = supervised(Part.HISTORY, Faults.in(faultDir));
    Files.writeString(faultDir.resolve("projector"), "");
    TestProbe<Integer> replies = KIT.createTestProbe();
    history.tell(new Work(false, replies.ref()));
    history.tell(new Work(false, replies.ref()));
    // the first message met the injected failure; the second is handled by the part started again
    assertEquals(2, replies.receiveMessage(Duration.ofSeconds(5)));
    assertFalse(Files.exists(faultDir.resolve("projector")), "a fault is injected once");
    assertEquals(1, status(Part.HISTORY).restarts());
    assertEquals(List.of(), stops);
  }

  @Test
  void aPartThatKeepsFailingStopsTheDaemonSayingWhy() throws Exception {
    ActorRef<Work> reconciler = supervised(Part.RECONCILER, Faults.in(faultDir));
    Files.writeString(faultDir.resolve("reconciler"), "always");
    TestProbe<Integer> replies = KIT.createTestProbe();
    for (int i = 0; i < 4; i++) reconciler.tell(new Work(false, replies.ref()));
    replies.awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(List.of("the reconciler failed after 2 restarts (reconciler: failure injected for a test (always))"), stops);
      return null;
    });
    assertEquals(PartStatus.State.STOPPED, status(Part.RECONCILER).state());
    replies.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aGpuTimelineThatKeepsFailingStopsAloneAndTheDaemonGoesOn() throws Exception {
    ActorRef<Work> timeline = supervised(Part.GPU_TIMELINE, Faults.in(faultDir));
    TestProbe<Integer> replies = KIT.createTestProbe();
    timeline.tell(new Work(false, replies.ref()));
    assertEquals(1, replies.receiveMessage());
    timeline.tell(new Work(true, replies.ref()));
    replies.awaitAssert(Duration.ofSeconds(5), () -> {
      assertEquals(1, status(Part.GPU_TIMELINE).restarts());
      return null;
    });
    Files.writeString(faultDir.resolve("gpu-timeline"), "always");
    for (int i = 0; i < 4; i++) timeline.tell(new Work(false, replies.ref()));
    replies.awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(PartStatus.State.STOPPED, status(Part.GPU_TIMELINE).state());
      return null;
    });
    assertEquals("gpu timeline: stopped after failure (gpu timeline: failure injected for a test (always))",
        status(Part.GPU_TIMELINE).line(health.now()));
    assertEquals(List.of(), stops, "the daemon does not stop for its GPU record");
  }

  @Test
  void aSchedulerThatFailsStopsTheDaemonAtOnce() {
    ActorRef<Work> scheduler = supervised(Part.SCHEDULER, Faults.NONE);
    TestProbe<Integer> replies = KIT.createTestProbe();
    scheduler.tell(new Work(true, replies.ref()));
    replies.awaitAssert(() -> {
      assertEquals(List.of("the scheduler failed (disk on fire)"), stops);
      return null;
    });
    assertEquals(1, starts.get(), "never started again");
  }
}

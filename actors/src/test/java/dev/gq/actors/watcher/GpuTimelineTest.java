package dev.gq.actors.watcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Part;
import dev.gq.actors.health.PartHealth;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.health.PartStatus;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.persistence.Database;
import dev.gq.persistence.GpuSpans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPU record: the Scheduler's classification on every poll, written every 30 polls and when the timeline stops. */
class GpuTimelineTest {
  private static final ActorTestKit KIT = ActorTestKit.create(ManualTime.config());
  private static final ManualTime TIME = ManualTime.get(KIT.system());
  private static final Duration POLL = Duration.ofSeconds(1);
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final Clock clock = new Clock() {
    @Override public ZoneId getZone() {
      return ZoneOffset.UTC;
    }
    @Override public Clock withZone(ZoneId zone) {
      return this;
    }
    @Override public Instant instant() {
      return now.get();
    }
  };

  @TempDir Path tmp;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static GpuStatus gpu(GpuState s) {
    return new GpuStatus(0, "GPU-a", "fake", s, null, List.of(), 1L << 30, 0, null);
  }

  /** One poll at {@code at} answered with GPU 0 in state {@code s}. */
  private void poll(TestProbe<Scheduler.Command> scheduler, Instant at, GpuState s) {
    now.set(at);
    TIME.timePasses(POLL);
    scheduler.expectMessageClass(Scheduler.GetGpus.class).replyTo().tell(List.of(gpu(s)));
  }

  @Test
  void spansAreWrittenEveryThirtyPollsAndWhenTheTimelineStops() throws Exception {
    Path db = tmp.resolve("gq.db");
    Database.prepare(db);
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<GpuTimeline.Command> timeline = KIT.spawn(GpuTimeline.create(scheduler.ref(), db, POLL, clock, Beat.NONE));
    poll(scheduler, T0, GpuState.FREE);
    poll(scheduler, T0.plusSeconds(1), GpuState.EXTERNAL);
    for (int i = 2; i < 30; i++) poll(scheduler, T0.plusSeconds(i), GpuState.EXTERNAL);
    // written at the 30th poll's moment, with the last answer before or after it
    scheduler.awaitAssert(Duration.ofSeconds(10), () -> {
      try {
        List<GpuSpan> written = written(db);
        assertEquals(2, written.size(), written.toString());
        assertEquals(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(1)), written.get(0));
        assertEquals(GpuUse.OUTSIDE, written.get(1).use());
        assertEquals(T0.plusSeconds(1), written.get(1).start());
      } catch (java.sql.SQLException e) {
        throw new AssertionError(e);
      }
      return null;
    });
    poll(scheduler, T0.plusSeconds(30), GpuState.RUNNING);
    // the next poll is served after the answer above was recorded (one mailbox, in order)
    now.set(T0.plusSeconds(31));
    TIME.timePasses(POLL);
    scheduler.expectMessageClass(Scheduler.GetGpus.class);
    KIT.stop(timeline);
    assertEquals(List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(1)),
        new GpuSpan("GPU-a", 0, GpuUse.OUTSIDE, T0.plusSeconds(1), T0.plusSeconds(30)),
        new GpuSpan("GPU-a", 0, GpuUse.JOBS, T0.plusSeconds(30), T0.plusSeconds(31))),
        written(db));
  }

  @Test
  void aFlushAtTheDaemonsStopWritesEverySpanBeforeItAnswers() throws Exception {
    Path db = tmp.resolve("gq.db");
    Database.prepare(db);
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<GpuTimeline.Command> timeline = KIT.spawn(GpuTimeline.create(scheduler.ref(), db, POLL, clock, Beat.NONE));
    poll(scheduler, T0, GpuState.FREE);
    poll(scheduler, T0.plusSeconds(1), GpuState.EXTERNAL);
    poll(scheduler, T0.plusSeconds(2), GpuState.EXTERNAL);
    now.set(T0.plusSeconds(3));
    TestProbe<Boolean> done = KIT.createTestProbe();
    timeline.tell(new GpuTimeline.Flush(done.ref()));
    assertEquals(Boolean.TRUE, done.receiveMessage());
    // written by then, long before the thirtieth poll, with the outside process's time up to the flush
    assertEquals(List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(1)),
        new GpuSpan("GPU-a", 0, GpuUse.OUTSIDE, T0.plusSeconds(1), T0.plusSeconds(3))),
        written(db));
    KIT.stop(timeline);
  }

  @Test
  void aWriteThatFailsShowsInTheHealthLineUntilAWriteWorks() throws Exception {
    Path db = tmp.resolve("gq.db");
    // no tables yet: the write fails
    Files.createFile(db);
    PartHealth health = new PartHealth(clock);
    TestProbe<Scheduler.Command> scheduler = KIT.createTestProbe();
    ActorRef<GpuTimeline.Command> timeline =
        KIT.spawn(GpuTimeline.create(scheduler.ref(), db, POLL, clock, health.beat(Part.GPU_TIMELINE)));
    poll(scheduler, T0, GpuState.FREE);
    poll(scheduler, T0.plusSeconds(1), GpuState.EXTERNAL);
    TestProbe<Boolean> done = KIT.createTestProbe();
    timeline.tell(new GpuTimeline.Flush(done.ref()));
    done.receiveMessage();
    PartStatus failing = timeline(health);
    assertEquals(PartStatus.State.FAILING, failing.state());
    assertTrue(failing.problem().startsWith("cannot write the GPU usage record: "), failing.problem());
    Database.prepare(db);
    timeline.tell(new GpuTimeline.Flush(done.ref()));
    done.receiveMessage();
    assertEquals(PartStatus.State.OK, timeline(health).state());
    // the spans the failed write held were kept for the next
    assertEquals(GpuUse.IDLE, written(db).get(0).use());
    KIT.stop(timeline);
  }

  private static PartStatus timeline(PartHealth health) {
    return health.status().stream().filter(s -> s.part().equals("gpu timeline")).findFirst().orElseThrow();
  }

  /** The spans written over the first 100 s. */
  private static List<GpuSpan> written(Path db) throws SQLException {
    List<GpuSpan> out = new ArrayList<>();
    GpuSpans.read(db, T0, T0.plusSeconds(100), out::add);
    return out;
  }
}

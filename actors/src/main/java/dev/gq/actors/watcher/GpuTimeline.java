package dev.gq.actors.watcher;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.SpanRecorder;
import dev.gq.persistence.GpuSpans;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records what each GPU does over time for {@code gq report}: on every poll interval it asks the
 * Scheduler for the GPUs as last classified, feeds their coarse use ({@link GpuUse}) to a
 * {@link SpanRecorder}, and writes the changed spans to the database in one transaction every
 * {@link #writeEvery} (30 polls, between 1 s and 60 s) and when it stops. It decides nothing and
 * never touches the journal; a failed write is kept for the next. Each write beats (a failed one says
 * why); the guardian supervises it like the daemon's other parts. Runs on the blocking dispatcher.
 */
public final class GpuTimeline {
  private static final Logger LOG = LoggerFactory.getLogger(GpuTimeline.class);

  public sealed interface Command {}
  private record Poll() implements Command {}
  private record Write() implements Command {}
  private record Classified(List<GpuStatus> gpus, long at) implements Command {}
  /** The daemon stops: close every span now and write them, then answer (so nothing waits on the actor's own stop). */
  public record Flush(ActorRef<Boolean> replyTo) implements Command {}

  private GpuTimeline() {}

  /** How long the Scheduler may take to answer: long, as only one question is out at a time. */
  static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

  private static void loaded(Class<?> c) {
    Objects.requireNonNull(c);
  }

  /** How often the spans are written, for a poll interval of {@code poll}. */
  public static Duration writeEvery(Duration poll) {
    Duration d = poll.multipliedBy(30);
    return d.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
        : d.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : d;
  }

  public static Behavior<Command> create(ActorRef<Scheduler.Command> scheduler, Path database, Duration poll, Clock clock,
      Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      // the writer's class is loaded now, not at the first write: a daemon whose descriptors a flood
      // of clients has taken may be unable to open a class file then, and an error loading a class
      // ends the actor system
      loaded(GpuSpans.class);
      timers.startTimerWithFixedDelay(new Poll(), poll);
      timers.startTimerWithFixedDelay(new Write(), writeEvery(poll));
      SpanRecorder recorder = new SpanRecorder();
      boolean[] failing = {false};
      // one question at a time, given long enough for a busy Scheduler: a short one timed out under
      // load and left the record without what the GPUs did meanwhile
      boolean[] asking = {false};
      Runnable write = () -> {
        List<GpuSpan> spans = recorder.drain();
        try {
          if (!spans.isEmpty()) GpuSpans.write(database, spans, clock.instant());
          if (failing[0]) LOG.info("GPU usage record written again");
          failing[0] = false;
          beat.worked();
        } catch (SQLException e) {
          recorder.retry(spans);
          if (!failing[0]) LOG.warn("cannot write the GPU usage record ({}); gq retries", e.getMessage());
          failing[0] = true;
          beat.failing("cannot write the GPU usage record: " + Supervision.why(e));
        }
      };
      return Behaviors.receive(Command.class)
          .onMessage(Poll.class, m -> {
            // the moment asked, not answered: the classification is of the latest reading by then
            if (asking[0]) return Behaviors.same();
            asking[0] = true;
            long at = clock.millis();
            ctx.ask(List.class, scheduler, ASK_TIMEOUT, r -> new Scheduler.GetGpus(cast(r)),
                (gpus, err) -> new Classified(gpus == null ? null : cast(gpus), at));
            return Behaviors.same();
          })
          .onMessage(Classified.class, m -> {
            asking[0] = false;
            if (m.gpus() != null) recorder.seen(uses(m.gpus()), Instant.ofEpochMilli(m.at()));
            return Behaviors.same();
          })
          .onMessage(Write.class, m -> {
            write.run();
            return Behaviors.same();
          })
          .onMessage(Flush.class, m -> {
            recorder.stop(clock.instant());
            write.run();
            m.replyTo().tell(Boolean.TRUE);
            return Behaviors.same();
          })
          .onSignal(PostStop.class, s -> {
            recorder.stop(clock.instant());
            write.run();
            return Behaviors.same();
          })
          .build();
    }));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T> T cast(Object o) {
    return (T) o;
  }

  private static List<SpanRecorder.Seen> uses(List<GpuStatus> gpus) {
    return gpus.stream().map(g -> new SpanRecorder.Seen(g.uuid(), g.index(), GpuUse.of(g.state()))).toList();
  }
}

package dev.gq.actors.projector;

import dev.gq.core.ledger.LedgerEvent;
import dev.gq.persistence.ReadSide;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.javadsl.Sink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the read side (job history) up to date: applies the events the Scheduler has just stored,
 * and whenever its offset is behind (a crash between journal and read side, a failed write) reads
 * the missing events back from the journal first. Runs on the blocking dispatcher.
 */
public final class Projector {
  private static final Logger LOG = LoggerFactory.getLogger(Projector.class);

  public sealed interface Command {}
  public record Project(long firstSeq, List<LedgerEvent> events) implements Command {}
  /** Replies once everything up to {@code seq} is in the read side. */
  public record Sync(long seq, ActorRef<Done> replyTo) implements Command {}

  private Projector() {}

  public static Behavior<Command> create(ReadSide readSide) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(Project.class, m -> {
          project(ctx.getSystem(), readSide, m);
          return Behaviors.same();
        })
        .onMessage(Sync.class, m -> {
          if (safeOffset(readSide) < m.seq()) catchUp(ctx.getSystem(), readSide);
          m.replyTo().tell(Done.getInstance());
          return Behaviors.same();
        })
        .build());
  }

  private static void project(ActorSystem<?> system, ReadSide rs, Project m) {
    try {
      // Behind (an earlier write failed): read the gap from the journal, which has every event;
      // the events in hand are part of what it reads. Never apply across a gap.
      if (rs.offset() + 1 < m.firstSeq()) catchUp(system, rs);
      else rs.apply(m.firstSeq(), m.events());
    } catch (SQLException e) {
      LOG.error("cannot update the job history for events {}..: {}; will catch up from the journal",
          m.firstSeq(), e.getMessage());
    }
  }

  /** Applies every journal event after the read side's offset. Blocks. */
  public static void catchUp(ActorSystem<?> system, ReadSide rs) {
    try {
      long from = rs.offset() + 1;
      JdbcReadJournal journal = PersistenceQuery.get(system)
          .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
      List<EventEnvelope> envs = journal.currentEventsByPersistenceId("scheduler", from, Long.MAX_VALUE)
          .runWith(Sink.seq(), system).toCompletableFuture().get(Duration.ofMinutes(5).toMillis(),
              java.util.concurrent.TimeUnit.MILLISECONDS);
      List<LedgerEvent> events = new ArrayList<>();
      long expect = from;
      for (EventEnvelope e : envs) {
        if (e.sequenceNr() != expect++) throw new IllegalStateException("gap in the journal at " + e.sequenceNr());
        events.add((LedgerEvent) e.event());
      }
      if (!events.isEmpty()) rs.apply(from, events);
      if (!events.isEmpty()) LOG.info("job history caught up with {} event(s) from the journal", events.size());
    } catch (Exception e) {
      LOG.error("cannot catch the job history up from the journal: {}", e.toString());
    }
  }

  private static long safeOffset(ReadSide rs) {
    try {
      return rs.offset();
    } catch (SQLException e) {
      return -1;
    }
  }
}

package dev.gq.actors.projector;

import dev.gq.actors.health.Beat;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.persistence.HistoryLag;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.StoredEvent;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the history up to date: applies the events the Scheduler has just stored,
 * and whenever its offset is behind (a crash between journal and history, a failed write) reads
 * the missing events back from the journal table first. Runs on the blocking dispatcher.
 */
public final class Projector {
  private static final Logger LOG = LoggerFactory.getLogger(Projector.class);

  public sealed interface Command {}
  public record Project(long firstSeq, List<LedgerEvent> events) implements Command {}
  /**
   * Replies once everything up to {@code seq} is in the history: at once, or when the Scheduler has
   * handed over the events the history lacks, or, when they do not come within {@link #HANDED_OVER},
   * after reading them from the journal.
   */
  public record Sync(long seq, ActorRef<Done> replyTo) implements Command {}
  /** Applies the events received since the last one. */
  private record Flush() implements Command {}
  /** Reads what the history lacks from the journal. */
  private record CatchUp() implements Command {}
  /** The events the waiting syncs ask for did not come in time: read them from the journal. */
  private record Late() implements Command {}

  /** How long after a failed update the history tries to catch up again. */
  private static final Duration RETRY = Duration.ofSeconds(5);

  /**
   * How long a sync for events the history lacks waits for the Scheduler to hand them over before
   * they are read from the journal: a reader that looks at the journal itself (the notifier) may see a
   * write committed before the Scheduler has handed it over, and reading it back costs its decoding.
   */
  static final Duration HANDED_OVER = Duration.ofSeconds(5);

  /** Events read and applied per transaction when catching up. */
  private static final int PAGE = 1000;

  private Projector() {}

  /**
   * Events are applied at a {@link Flush} the first {@link Project} sends itself: the writes stored
   * meanwhile (a busy queue stores several while one is applied) queue up behind it and go into the
   * history together, contiguous ones in one transaction, so the history commits once for them all.
   */
  public static Behavior<Command> create(JobHistory jobHistory, JournalReader journal) {
    return create(jobHistory, journal, Beat.NONE);
  }

  /**
   * The same, telling {@code beat} of each update of the history and each that failed. It begins by
   * catching up with the journal (after a restart, the events handed to the one before may be lost),
   * and after a failed update catches up again {@link #RETRY} later, new events or not.
   */
  public static Behavior<Command> create(JobHistory jobHistory, JournalReader journal, Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      List<Project> pending = new ArrayList<>();
      List<Sync> waiting = new ArrayList<>();
      Consumer<Boolean> retry = ok -> {
        if (!ok) timers.startSingleTimer("retry", new CatchUp(), RETRY);
      };
      Runnable flush = () -> {
        for (Project p : merged(pending)) retry.accept(project(ctx.getSystem(), jobHistory, journal, p, beat));
        pending.clear();
        answer(waiting, safeOffset(jobHistory));
      };
      ctx.getSelf().tell(new CatchUp());
      return Behaviors.receive(Command.class)
          .onMessage(CatchUp.class, m -> {
            retry.accept(report(beat, catchUp(ctx.getSystem(), jobHistory, journal)));
            answer(waiting, safeOffset(jobHistory));
            return Behaviors.same();
          })
          .onMessage(Project.class, m -> {
            if (pending.isEmpty()) ctx.getSelf().tell(new Flush());
            pending.add(m);
            return Behaviors.same();
          })
          .onMessage(Flush.class, m -> {
            flush.run();
            return Behaviors.same();
          })
          .onMessage(Sync.class, m -> {
            flush.run();
            if (safeOffset(jobHistory) >= m.seq()) m.replyTo().tell(Done.getInstance());
            else {
              waiting.add(m);
              if (!timers.isTimerActive("late")) timers.startSingleTimer("late", new Late(), HANDED_OVER);
            }
            return Behaviors.same();
          })
          .onMessage(Late.class, m -> {
            flush.run();
            if (!waiting.isEmpty()) retry.accept(report(beat, catchUp(ctx.getSystem(), jobHistory, journal)));
            answer(waiting, Long.MAX_VALUE);
            return Behaviors.same();
          })
          .build();
    }));
  }

  /** Answers and forgets the syncs of {@code waiting} up to {@code offset}. */
  private static void answer(List<Sync> waiting, long offset) {
    waiting.removeIf(s -> {
      if (s.seq() > offset) return false;
      s.replyTo().tell(Done.getInstance());
      return true;
    });
  }

  /** {@code writes} in order, each run of contiguous ones (the next starts where the last ended) as one. */
  static List<Project> merged(List<Project> writes) {
    List<Project> out = new ArrayList<>(writes.size());
    for (Project w : writes) {
      Project last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.firstSeq() + last.events().size() == w.firstSeq()) {
        List<LedgerEvent> both = new ArrayList<>(last.events().size() + w.events().size());
        both.addAll(last.events());
        both.addAll(w.events());
        out.set(out.size() - 1, new Project(last.firstSeq(), both));
      } else {
        out.add(w);
      }
    }
    return out;
  }

  /** Applies {@code m}; false when the history could not be updated. */
  private static boolean project(ActorSystem<?> system, JobHistory rs, JournalReader journal, Project m, Beat beat) {
    try {
      // Behind (an earlier write failed): read the gap from the journal, which has every event;
      // the events in hand are part of what it reads. Never apply across a gap.
      if (rs.offset() + 1 < m.firstSeq()) return report(beat, catchUp(system, rs, journal));
      applyInPages(rs, m.firstSeq(), m.events());
      beat.worked();
      return true;
    } catch (SQLException e) {
      LOG.error("cannot update the job history for events {}..: {}; will catch up from the journal",
          m.firstSeq(), e.getMessage());
      beat.failing("cannot update the job history: " + firstLine(e.getMessage()) + "; it catches up once it can");
      return false;
    }
  }

  /** Tells {@code beat} how a catch-up went ({@code failure}: null when it succeeded); true when it did. */
  private static boolean report(Beat beat, String failure) {
    if (failure == null) beat.worked();
    else beat.failing("cannot catch the job history up with the journal: " + failure + "; it tries again");
    return failure == null;
  }

  private static String firstLine(String s) {
    return s == null ? "unknown error" : s.strip().lines().findFirst().orElse("unknown error");
  }

  /**
   * Applies {@code events} a page per transaction: a batch of 20,000 jobs in one transaction would
   * hold SQLite's write lock longer than the journal's writes wait for it.
   */
  private static void applyInPages(JobHistory rs, long firstSeq, List<LedgerEvent> events) throws SQLException {
    for (int i = 0; i < events.size(); i += PAGE)
      rs.apply(firstSeq + i, events.subList(i, Math.min(events.size(), i + PAGE)));
  }

  /**
   * Applies every journal event after the history's offset, a page at a time, straight from the
   * journal table; reads nothing when the offset is already the journal's highest sequence number.
   * Blocks. Returns null, or why it could not (one line; the log has the details).
   */
  public static String catchUp(ActorSystem<?> system, JobHistory rs, JournalReader journal) {
    try {
      HistoryLag lag = new HistoryLag(rs.offset(), journal.highestSeq());
      if (lag.ahead())
        LOG.warn("the job history is at event {} but the journal ends at {}", lag.readOffset(), lag.journalHighest());
      if (lag.upToDate()) return null;
      Serialization serialization = SerializationExtension.get(Adapter.toClassic(system));
      long from = lag.readOffset() + 1;
      long applied = 0;
      List<StoredEvent> page;
      do {
        page = journal.stored(from - 1, PAGE);
        List<LedgerEvent> events = decode(serialization, page, from);
        if (!events.isEmpty()) rs.apply(from, events);
        from += events.size();
        applied += events.size();
      } while (page.size() == PAGE);
      if (applied > 0) LOG.info("job history caught up with {} event(s) from the journal", applied);
      return null;
    } catch (Exception e) {
      LOG.error("cannot catch the job history up from the journal: {}", e.toString());
      return firstLine(e.getMessage());
    }
  }

  /**
   * Job {@code id} as stored, with its command and log path, from the history; when the row is not
   * there yet (its submission was stored a moment ago), after catching the history up with the
   * journal. Blocks; throws with the reason when the command cannot be found.
   */
  public static Job stored(ActorSystem<?> system, JobHistory rs, JournalReader journal, long id) {
    try {
      Optional<Job> j = rs.launchRead(id);
      if (j.isEmpty() || !j.get().spec().hasCommand()) {
        catchUp(system, rs, journal);
        j = rs.job(id);
      }
      if (j.isEmpty()) throw new IllegalStateException("job " + id + " is not in the job history");
      if (!j.get().spec().hasCommand())
        throw new IllegalStateException("job " + id + " shares the command of a job that is no longer in the history");
      return j.get();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The events of {@code page}, which must be numbered {@code from, from+1, ...}: never apply across a gap. */
  private static List<LedgerEvent> decode(Serialization serialization, List<StoredEvent> page, long from) {
    List<LedgerEvent> events = new ArrayList<>(page.size());
    long expect = from;
    for (StoredEvent e : page) {
      if (e.seq() != expect++) throw new IllegalStateException("gap in the journal at " + e.seq());
      events.add((LedgerEvent) serialization.deserialize(e.payload(), e.serializerId(), e.manifest()).get());
    }
    return events;
  }

  private static long safeOffset(JobHistory rs) {
    try {
      return rs.offset();
    } catch (SQLException e) {
      return -1;
    }
  }
}

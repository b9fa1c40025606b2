package dev.gq.actors.notify;

import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.notify.FactsAfter;
import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NoticeFacts;
import dev.gq.core.notify.NoticeRules;
import dev.gq.core.notify.NotifierMemory;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.StoredEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongConsumer;
import org.apache.pekko.serialization.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery pass: reads the stored events after the cursor, has the history caught up with
 * them, decides each one's messages ({@link NoticeRules}, from the facts right after the event
 * whatever later events the history took since: {@link FactsAfter}; a group's message and the
 * drained queue at the end of each write: {@link WriteEnds}) and hands them to the targets' lanes
 * ({@link Notifications#deliver}), and stores the cursor past an event only once its messages were
 * delivered or given up: the cursor stored is the event before the oldest one whose messages are
 * still on their way (with the memory deciding up to it left). So a message is sent at least once (a
 * crash between its delivery and the cursor's write sends it again), a restart between an event and
 * its delivery delivers it once, and a slow target holds back only the stored cursor, never another
 * target's messages. A cursor never stored starts at the journal's end: a new notifier does not
 * announce the past. Past events that called for no message the cursor is stored at most once a
 * second ({@link CursorSaves}). A cursor that cannot be stored is said in {@code gq daemon status}
 * and logged once; the pass goes on. An event whose content the rules do not read (a reservation, a
 * launch) is decided from the type its stored manifest names, without reading it back. Blocks; runs
 * on the notifier's own thread.
 */
final class NotifierPass {
  private static final Logger LOG = LoggerFactory.getLogger(NotifierPass.class);
  private static final int PAGE = 200;
  /** How many events' messages may be on their way at once before deciding waits for the oldest. */
  private static final int IN_FLIGHT = 1000;
  /** How long a cursor moved past events that called for nothing may wait to be stored. */
  private static final long SAVE_SPACING_NANOS = 1_000_000_000L;

  /** An event whose messages are on their way, and the state to store until they are. */
  private record InFlight(CursorFile.State before, CompletableFuture<Void> sent) {}

  private final JournalReader journal;
  private final JobHistory history;
  private final NoticeFacts facts;
  private final WriteEnds writes;
  private final Notifications notifications;
  private final CursorFile file;
  private final Serialization serialization;
  private final LongConsumer historyAtLeast;
  private final Runnable wake;
  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  /** Stored manifests and the event classes they name, so that most events need not be read back. */
  private final Map<String, Class<?>> types = new HashMap<>();
  private volatile CursorFile.State state;
  private final CursorSaves saves = new CursorSaves(SAVE_SPACING_NANOS, System.nanoTime());
  private String unstored;

  /**
   * {@code writes}: the ends of the writes stored; {@code wake}: told when an event's messages are
   * all sent, so that the cursor is stored past it at once.
   */
  NotifierPass(JournalReader journal, JobHistory history, WriteEnds writes, Notifications notifications,
      Path dataDir, Serialization serialization, LongConsumer historyAtLeast, Runnable wake) {
    this.journal = journal;
    this.history = history;
    this.writes = writes;
    this.facts = new FactsAfter(new HistoryFacts(history, journal, writes, notifications.failFastWithin()));
    this.notifications = notifications;
    this.file = new CursorFile(dataDir);
    this.serialization = serialization;
    this.historyAtLeast = historyAtLeast;
    this.wake = wake;
  }

  /** Stored events not yet decided. */
  long behind() {
    CursorFile.State s = state;
    try {
      return s == null ? 0 : Math.max(0, journal.highestSeq() - s.cursor());
    } catch (SQLException e) {
      return 0;
    }
  }

  void run() throws SQLException, InterruptedException {
    if (state == null) state = start();
    if (settle()) save();
    long high = stored();
    while (state.cursor() < high) {
      historyAtLeast.accept(high);
      // a history that could not catch up would say that jobs ended since still run: try again later
      if (history.committed() < high && history.offset() < high)
        throw new IllegalStateException("the job history is behind the journal (at event " + history.offset() + " of " + high + ")");
      List<StoredEvent> page = journal.stored(state.cursor(), PAGE);
      if (page.isEmpty()) break;
      // the page may hold events stored since the history was synced: those wait for the next sync,
      // or their facts would be read from a history that does not have them yet
      for (StoredEvent stored : page) {
        if (stored.seq() > high) break;
        step(stored);
      }
      high = stored();
    }
    if (saves.due(System.nanoTime())) save();
  }

  /** The last event stored, which ends a write: a write is stored whole or not at all. */
  private long stored() throws SQLException {
    long high = journal.highestSeq();
    writes.stored(high);
    return high;
  }

  /** Stores the cursor when it moved past events not yet stored (the notifier's tick and its stop). */
  void flush() {
    if (state == null) return;
    if (settle() | saves.pending()) save();
  }

  private void step(StoredEvent stored) throws InterruptedException {
    NoticeRules.Outcome o;
    Class<?> type = type(stored.manifest());
    if (type != null && !NoticeRules.readsContent(type)) {
      o = NoticeRules.byType(stored.seq(), type, facts, state.memory());
    } else {
      LedgerEvent event = decode(stored);
      o = event == null ? new NoticeRules.Outcome(List.of(), state.memory())
          : NoticeRules.decide(stored.seq(), event, facts, state.memory());
    }
    if (!o.notices().isEmpty()) {
      if (inFlight.size() >= IN_FLIGHT) waitForOldest();
      // messages no target wants (none is set) are on no one's way: the event counts as one that
      // called for nothing, and the cursor is not stored for it at once
      CursorFile.State before = state;
      notifications.deliver(o.notices()).ifPresent(sent -> {
        inFlight.addLast(new InFlight(before, sent));
        if (!sent.isDone()) sent.whenComplete((ok, failure) -> wake.run());
      });
    }
    state = new CursorFile.State(stored.seq(), o.memory());
    writes.decided(stored.seq());
    // stored at once after a delivery, so that it is not sent again; a memory that only counted the
    // event is rebuilt by deciding the event again from the stored one
    if (saves.afterEvent(settle(), System.nanoTime())) save();
  }

  private void waitForOldest() throws InterruptedException {
    try {
      inFlight.peekFirst().sent().get();
    } catch (ExecutionException e) {
      // a lane that ended (the notifier stopping): its messages go again after the restart
    }
  }

  /** Drops the events whose messages are all sent; whether any was dropped. */
  private boolean settle() {
    boolean any = false;
    while (!inFlight.isEmpty() && inFlight.peekFirst().sent().isDone() && !inFlight.peekFirst().sent().isCompletedExceptionally()) {
      inFlight.removeFirst();
      any = true;
    }
    return any;
  }

  /** The state to store: past every event whose messages are all sent, and no further. */
  private CursorFile.State storable() {
    return inFlight.isEmpty() ? state : inFlight.peekFirst().before();
  }

  private void save() {
    CursorFile.State s = storable();
    try {
      file.write(s);
      saves.saved(System.nanoTime());
      if (unstored != null) LOG.info("notifications: the cursor is stored again in {}", file.path());
      unstored = null;
      notifications.cursorStored(null);
    } catch (IOException e) {
      String problem = "cannot store the notification cursor " + file.path() + ": " + NoticeFailures.write(e)
          + "; until it can be, each daemon restart sends again the messages since it was last stored";
      if (!problem.equals(unstored)) LOG.warn("notifications: {}", problem);
      unstored = problem;
      notifications.cursorStored(problem);
    }
  }

  private CursorFile.State start() throws SQLException {
    try {
      CursorFile.State s = file.read();
      if (s != null) return s;
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the notification cursor " + file.path() + ": " + NoticeFailures.write(e), e);
    }
    state = new CursorFile.State(journal.highestSeq(), NotifierMemory.EMPTY);
    save();
    return state;
  }

  /** The event class a stored manifest names ({@code dev.gq.core.ledger.LedgerEvent$JobReserved}, maybe with {@code #version}); null if none. */
  private Class<?> type(String manifest) {
    if (manifest == null) return null;
    return types.computeIfAbsent(manifest, m -> {
      String name = m.contains("#") ? m.substring(0, m.indexOf('#')) : m;
      try {
        Class<?> c = Class.forName(name, false, LedgerEvent.class.getClassLoader());
        return LedgerEvent.class.isAssignableFrom(c) ? c : null;
      } catch (ClassNotFoundException | LinkageError e) {
        return null; // read back in full, which says what is wrong with it
      }
    });
  }

  private LedgerEvent decode(StoredEvent e) {
    try {
      return (LedgerEvent) serialization.deserialize(e.payload(), e.serializerId(), e.manifest()).get();
    } catch (RuntimeException ex) {
      LOG.warn("stored event {} cannot be read for notifications ({}); skipped", e.seq(), ex.getMessage());
      return null;
    }
  }
}

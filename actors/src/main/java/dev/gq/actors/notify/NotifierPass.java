package dev.gq.actors.notify;

import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NoticeRules;
import dev.gq.core.notify.NotifierMemory;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.StoredEvent;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.pekko.serialization.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery pass: reads the stored events after the cursor, has the history caught up with
 * them, decides each one's messages ({@link NoticeRules}), delivers them, and only then stores the
 * cursor past it. So a message is sent at least once (a crash between its delivery and the cursor's
 * write sends it again), and a restart between an event and its delivery delivers it once. A cursor
 * never stored starts at the journal's end: a new notifier does not announce the past. Past events
 * that called for no message the cursor is stored at most once a second ({@link CursorSaves}). Blocks; runs
 * on the notifier's own thread.
 */
final class NotifierPass {
  private static final Logger LOG = LoggerFactory.getLogger(NotifierPass.class);
  private static final int PAGE = 200;
  /** How long a cursor moved past events that called for nothing may wait to be stored. */
  private static final long SAVE_SPACING_NANOS = 1_000_000_000L;

  private final JournalReader journal;
  private final HistoryFacts facts;
  private final Notifications notifications;
  private final CursorFile file;
  private final Serialization serialization;
  private final LongConsumer historyAtLeast;
  private volatile CursorFile.State state;
  private final CursorSaves saves = new CursorSaves(SAVE_SPACING_NANOS, System.nanoTime());

  NotifierPass(JournalReader journal, JobHistory history, Notifications notifications, java.nio.file.Path dataDir,
      Serialization serialization, LongConsumer historyAtLeast) {
    this.journal = journal;
    this.facts = new HistoryFacts(history);
    this.notifications = notifications;
    this.file = new CursorFile(dataDir);
    this.serialization = serialization;
    this.historyAtLeast = historyAtLeast;
  }

  /** Stored events not yet decided and delivered. */
  long behind() {
    CursorFile.State s = state;
    try {
      return s == null ? 0 : Math.max(0, journal.highestSeq() - s.cursor());
    } catch (SQLException e) {
      return 0;
    }
  }

  void run() throws SQLException, IOException, InterruptedException {
    if (state == null) state = start();
    long high = journal.highestSeq();
    while (state.cursor() < high) {
      historyAtLeast.accept(high);
      List<StoredEvent> page = journal.stored(state.cursor(), PAGE);
      if (page.isEmpty()) break;
      // the page may hold events stored since the history was synced: those wait for the next sync,
      // or their facts would be read from a history that does not have them yet
      for (StoredEvent stored : page) {
        if (stored.seq() > high) break;
        step(stored);
      }
      high = journal.highestSeq();
    }
    if (saves.due(System.nanoTime())) save();
  }

  /** Stores the cursor when it moved past events not yet stored (the notifier's tick and its stop). */
  void flush() throws IOException {
    if (state != null && saves.pending()) save();
  }

  private void save() throws IOException {
    file.write(state);
    saves.saved(System.nanoTime());
  }

  private void step(StoredEvent stored) throws IOException, InterruptedException {
    LedgerEvent event = decode(stored);
    NoticeRules.Outcome o = event == null ? new NoticeRules.Outcome(List.of(), state.memory())
        : NoticeRules.decide(stored.seq(), event, facts, state.memory());
    for (Notice n : o.notices()) notifications.deliver(n);
    // stored at once after a delivery, so that it is not sent again; a memory that only counted the
    // event is rebuilt by deciding the event again from the stored one
    state = new CursorFile.State(stored.seq(), o.memory());
    if (saves.afterEvent(!o.notices().isEmpty(), System.nanoTime())) save();
  }

  private CursorFile.State start() throws SQLException, IOException {
    CursorFile.State s = file.read();
    if (s != null) return s;
    s = new CursorFile.State(journal.highestSeq(), NotifierMemory.EMPTY);
    file.write(s);
    return s;
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

package dev.gq.actors.projector;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.persistence.Database;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.JournalReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync for events the journal has but the Scheduler has not handed over yet (a reader that looks
 * at the journal itself, the notifier, can see a write before the Scheduler hands it over) waits for
 * them rather than read them back from the journal; events that never come are read from it.
 */
class ProjectorSyncTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;
  private ActorTestKit kit;
  private JobHistory history;
  private JournalReader journal;

  @BeforeEach
  void start() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    Config conf = ConfigFactory.parseString(JournalConfig.hocon(db))
        .withFallback(ConfigFactory.parseResources("gq-daemon.conf")).withFallback(ConfigFactory.load());
    kit = ActorTestKit.create("projector-sync", conf);
    history = JobHistory.open(db);
    journal = JournalReader.open(db);
  }

  @AfterEach
  void stop() throws Exception {
    kit.shutdownTestKit();
    journal.close();
    history.close();
  }

  private static JobSubmitted submitted(String word) {
    return new JobSubmitted(1, new JobSpec(List.of("echo", word), "/", Map.of(), 0, null, null, null), "t1", "/l/1", null, T);
  }

  /** Stores {@code events} in the journal through the plugin, as the Scheduler stores a write. */
  private void store(List<LedgerEvent> events) {
    TestProbe<Done> stored = kit.createTestProbe();
    kit.spawn(new JournalFormatTest.Writer()).tell(new JournalFormatTest.Writer.Write(events, stored.getRef()));
    stored.expectMessage(Duration.ofSeconds(30), Done.getInstance());
  }

  private ActorRef<Projector.Command> projectorUpToDate() {
    ActorRef<Projector.Command> p = kit.spawn(Projector.create(history, journal));
    TestProbe<Done> synced = kit.createTestProbe();
    p.tell(new Projector.Sync(0, synced.getRef()));
    synced.expectMessage(Duration.ofSeconds(30), Done.getInstance());
    return p;
  }

  @Test
  void aSyncAheadOfTheHistoryIsAnsweredWithTheEventsHandedOverNotReadBackFromTheJournal() throws Exception {
    ActorRef<Projector.Command> p = projectorUpToDate();
    store(List.of(submitted("as-stored")));
    TestProbe<Done> synced = kit.createTestProbe();
    p.tell(new Projector.Sync(1, synced.getRef()));
    // the hand-over carries a word the journal's copy does not: the row shows which one was applied
    p.tell(new Projector.Project(1, List.of(submitted("handed-over"))));
    synced.expectMessage(Duration.ofSeconds(30), Done.getInstance());
    assertEquals(List.of("echo", "handed-over"), history.job(1).orElseThrow().spec().argv());
  }

  @Test
  void eventsNeverHandedOverAreReadFromTheJournal() throws Exception {
    ActorRef<Projector.Command> p = projectorUpToDate();
    store(List.of(submitted("as-stored")));
    TestProbe<Done> synced = kit.createTestProbe();
    p.tell(new Projector.Sync(1, synced.getRef()));
    synced.expectMessage(Duration.ofSeconds(30), Done.getInstance());
    assertEquals(List.of("echo", "as-stored"), history.job(1).orElseThrow().spec().argv());
  }
}

package dev.gq.actors.projector;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.ledger.LedgerEvent.JobsRemoved;
import dev.gq.core.ledger.LedgerEvent.QueuePaused;
import dev.gq.persistence.Database;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.JournalEntry;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.StoredEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's storage format, as {@link JournalReader} reads it by hand (catch-up of the history,
 * 'gq events', start-up checks): events written through the real pekko-persistence-jdbc plugin land
 * in {@code event_journal} as one row each, under the Scheduler's persistence id, numbered from 1,
 * with the Jackson serializer's id, the event's class name as manifest, and the payload as JSON
 * text or, when large, gzipped JSON. A plugin upgrade that changes any of it fails here first.
 */
class JournalFormatTest {
  /** The plugin version this format was checked against; on an upgrade, check the format, then this. */
  private static final String PLUGIN_VERSION = "1.1.1";
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  /** Stores the events it is handed under the Scheduler's persistence id, as the Scheduler does. */
  static final class Writer extends EventSourcedBehavior<Writer.Write, LedgerEvent, Integer> {
    record Write(List<LedgerEvent> events, ActorRef<Done> replyTo) {}

    Writer() {
      super(PersistenceId.ofUniqueId(JournalReader.PERSISTENCE_ID));
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandler<Write, LedgerEvent, Integer> commandHandler() {
      return (state, w) -> Effect().persist(w.events()).thenRun(s -> w.replyTo().tell(Done.getInstance()));
    }

    @Override
    public EventHandler<Integer, LedgerEvent> eventHandler() {
      return (state, e) -> state + 1;
    }
  }

  @Test
  void thePluginIsTheVersionWhoseFormatJournalReaderReads() throws Exception {
    Path jar = Path.of(org.apache.pekko.persistence.jdbc.journal.JdbcAsyncWriteJournal.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    try (JarFile f = new JarFile(jar.toFile())) {
      assertEquals("pekko-persistence-jdbc", f.getManifest().getMainAttributes().getValue("Implementation-Title"));
      assertEquals(PLUGIN_VERSION, f.getManifest().getMainAttributes().getValue("Implementation-Version"),
          "pekko-persistence-jdbc changed: check that JournalReader still reads its rows (this test), then update PLUGIN_VERSION");
    }
  }

  @Test
  void eventsWrittenThroughThePluginAreTheRowsJournalReaderReads() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    Config conf = ConfigFactory.parseString(JournalConfig.hocon(db))
        .withFallback(ConfigFactory.parseResources("gq-daemon.conf")).withFallback(ConfigFactory.load());
    ActorTestKit kit = ActorTestKit.create("journal-format", conf);
    try {
      Map<String, String> env = new HashMap<>();
      env.put("BIG", "x".repeat(64 * 1024)); // over the serializer's compress-larger-than: stored gzipped
      List<LedgerEvent> events = List.of(new QueuePaused(T),
          new JobSubmitted(1, new JobSpec(List.of("true"), "/", env, 0, null, "g", null), "t1", "/l/1", null, T),
          new JobsRemoved(List.of(1L), T));
      TestProbe<Done> probe = kit.createTestProbe();
      kit.spawn(new Writer()).tell(new Writer.Write(events, probe.getRef()));
      probe.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      Serialization serialization = SerializationExtension.get(Adapter.toClassic(kit.system()));

      assertRows(db, events, serialization);
      try (JournalReader reader = JournalReader.open(db)) {
        assertEquals(3, reader.highestSeq());
        List<LedgerEvent> back = new ArrayList<>();
        for (StoredEvent s : reader.stored(0, 10))
          back.add((LedgerEvent) serialization.deserialize(s.payload(), s.serializerId(), s.manifest()).get());
        assertEquals(events, back);
        List<JournalEntry> shown = reader.read(0, null, null, 10);
        assertEquals(List.of("QueuePaused", "JobSubmitted", "JobsRemoved"), shown.stream().map(JournalEntry::type).toList());
        assertEquals(1L, shown.get(1).jobId(), "read from the gzipped payload");
        assertEquals(List.of("true"), shown.get(1).fields().get("argv"));
        assertFalse(shown.toString().contains("xxxx"), "the environment is left out");
        assertEquals(List.of(2L), reader.read(0, 1L, null, 10).stream().map(JournalEntry::seq).toList());
      }
    } finally {
      kit.shutdownTestKit();
    }
  }

  /**
   * gq's journal writes its rows itself ({@code CheckedJournal}); they are the rows the plugin
   * writes for the same events, column by column (but the ordering, the time and the writer's id),
   * and the plugin replays them.
   */
  @Test
  void theRowsGqsJournalWritesAreThoseThePluginWritesAndTheyReplay() throws Exception {
    List<LedgerEvent> events = List.of(new QueuePaused(T),
        new JobSubmitted(1, new JobSpec(List.of("true"), "/", Map.of("BIG", "x".repeat(64 * 1024)), 0, null, "g", null),
            "t1", "/l/1", null, T),
        new JobsRemoved(List.of(1L), T));
    Path ours = dir.resolve("ours.db"), plugin = dir.resolve("plugin.db");
    write(ours, null, events);
    write(plugin, "org.apache.pekko.persistence.jdbc.journal.JdbcAsyncWriteJournal", events);
    String columns = "deleted, persistence_id, sequence_number, adapter_manifest, event_payload, event_ser_id,"
        + " event_ser_manifest, meta_payload, meta_ser_id, meta_ser_manifest, typeof(deleted), typeof(event_payload),"
        + " typeof(meta_payload), length(writer) > 0, write_timestamp > 0";
    assertEquals(rows(plugin, columns), rows(ours, columns));
    assertEquals(events.size(), rows(ours, columns).size());
    // a restart replays them: the writer's state counts the events
    assertEquals(events.size(), replayed(ours));
  }

  private void write(Path db, String journalClass, List<LedgerEvent> events) throws Exception {
    Database.prepare(db);
    Config conf = ConfigFactory.parseString(JournalConfig.hocon(db))
        .withFallback(ConfigFactory.parseResources("gq-daemon.conf")).withFallback(ConfigFactory.load());
    if (journalClass != null) conf = ConfigFactory.parseString("jdbc-journal.class = \"" + journalClass + "\"").withFallback(conf);
    ActorTestKit kit = ActorTestKit.create("journal-rows", conf);
    try {
      TestProbe<Done> probe = kit.createTestProbe();
      var w = kit.spawn(new Writer());
      // two writes: the second after the first is stored, as the Scheduler writes
      w.tell(new Writer.Write(events.subList(0, 1), probe.getRef()));
      probe.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      w.tell(new Writer.Write(events.subList(1, events.size()), probe.getRef()));
      probe.expectMessage(Duration.ofSeconds(30), Done.getInstance());
    } finally {
      kit.shutdownTestKit();
    }
  }

  private int replayed(Path db) throws Exception {
    Config conf = ConfigFactory.parseString(JournalConfig.hocon(db))
        .withFallback(ConfigFactory.parseResources("gq-daemon.conf")).withFallback(ConfigFactory.load());
    ActorTestKit kit = ActorTestKit.create("journal-replay", conf);
    try {
      TestProbe<Done> probe = kit.createTestProbe();
      var w = kit.spawn(new Writer());
      w.tell(new Writer.Write(List.of(new QueuePaused(T)), probe.getRef()));
      probe.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT max(sequence_number) FROM event_journal")) {
        rs.next();
        return rs.getInt(1) - 1; // the write after the replay went on from the replayed number
      }
    } finally {
      kit.shutdownTestKit();
    }
  }

  private static List<List<Object>> rows(Path db, String columns) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT " + columns + " FROM event_journal ORDER BY ordering")) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b) : v);
        }
        out.add(row);
      }
    }
    return out;
  }

  /** The columns and encodings JournalReader relies on, row by row. */
  private static void assertRows(Path db, List<LedgerEvent> events, Serialization serialization) throws Exception {
    long before = System.currentTimeMillis() + 1;
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT persistence_id, sequence_number, deleted, write_timestamp, event_ser_id,"
            + " event_ser_manifest, event_payload FROM event_journal ORDER BY ordering")) {
      for (int i = 0; i < events.size(); i++) {
        assertTrue(rs.next(), "one row per event");
        LedgerEvent e = events.get(i);
        Serializer jackson = serialization.findSerializerFor(e);
        assertEquals(JournalReader.PERSISTENCE_ID, rs.getString(1));
        assertEquals(i + 1, rs.getLong(2));
        assertFalse(rs.getBoolean(3));
        assertTrue(rs.getLong(4) > before - 600_000 && rs.getLong(4) < before, "write_timestamp is epoch milliseconds");
        assertEquals(jackson.identifier(), rs.getInt(5));
        assertEquals(e.getClass().getName(), rs.getString(6));
        byte[] payload = rs.getBytes(7);
        if (e instanceof JobSubmitted) {
          assertEquals(0x1f, payload[0] & 0xff, "a large payload is gzipped");
          assertEquals(0x8b, payload[1] & 0xff);
        } else {
          String json = new String(payload, StandardCharsets.UTF_8);
          assertEquals(new String(jackson.toBinary(e), StandardCharsets.UTF_8), json, "a small payload is the JSON text");
          assertTrue(json.startsWith("{"), json);
        }
      }
      assertFalse(rs.next());
    }
  }
}

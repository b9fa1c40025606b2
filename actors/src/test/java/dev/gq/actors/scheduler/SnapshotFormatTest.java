package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.LedgerSnapshot;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.jpountz.lz4.LZ4BlockInputStream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Snapshots are stored by a serializer of their own: the JSON Pekko's Jackson serializer makes of
 * them, LZ4-compressed as it is written (Pekko's made the JSON, a copy and the compressed bytes at
 * once, and gzip took most of the CPU of storing one); snapshots stored before by the events' binding
 * (gzipped when large) and plain JSON still load; events keep their binding.
 */
class SnapshotFormatTest {
  private static final ActorTestKit KIT = ActorTestKit.create("snapshot-format",
      ConfigFactory.parseString(JournalConfig.hocon(Path.of("/nonexistent/gq.db")))
          .withFallback(ConfigFactory.parseResources("gq-daemon.conf")).withFallback(ConfigFactory.load()));
  private static final Serialization SER = SerializationExtension.get(KIT.system().classicSystem());
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static LedgerSnapshot queue(int jobs) {
    Ledger l = Ledger.empty();
    for (long id = 1; id <= jobs; id++)
      l = l.apply(new LedgerEvent.JobSubmitted(id, new JobSpec(List.of("t"), "/w", Map.of(), 1, null, "g", null),
          "tag-" + id, "/l/" + id, null, T));
    return LedgerSnapshot.of(l);
  }

  private static String manifest(Serializer s, Object o) {
    return s instanceof SerializerWithStringManifest m ? m.manifest(o) : o.getClass().getName();
  }

  private static LedgerSnapshot read(byte[] bytes, Serializer s, Object o) {
    return (LedgerSnapshot) SER.deserialize(bytes, s.identifier(), manifest(s, o)).get();
  }

  @Test
  void aSnapshotIsTheEventsBindingsJsonLz4CompressedAndReadsBack() throws Exception {
    LedgerSnapshot snapshot = queue(5_000);
    Serializer s = SER.findSerializerFor(snapshot);
    assertEquals(JournalConfig.SNAPSHOT_SERIALIZER_ID, s.identifier());
    assertInstanceOf(SnapshotSerializer.class, s);
    byte[] bytes = s.toBinary(snapshot);
    assertEquals("LZ4Block", new String(bytes, 0, 8, StandardCharsets.US_ASCII));
    assertEquals(snapshot.ledger(), read(bytes, s, snapshot).ledger());
    // the same JSON as the events' binding writes
    LedgerSnapshot small = queue(3);
    byte[] json = new LZ4BlockInputStream(new ByteArrayInputStream(s.toBinary(small))).readAllBytes();
    assertEquals(new String(SER.serializerByIdentity().apply(31).toBinary(small), StandardCharsets.UTF_8),
        new String(json, StandardCharsets.UTF_8));
  }

  @Test
  void aSnapshotStoredGzippedByTheEventsBindingStillLoads() throws Exception {
    LedgerSnapshot snapshot = queue(5_000);
    Serializer events = SER.serializerByIdentity().apply(31);
    byte[] old = events.toBinary(snapshot);
    assertTrue((old[0] & 0xff) == 0x1f && (old[1] & 0xff) == 0x8b, "the events' binding gzips what is large");
    assertEquals(snapshot.ledger(), read(old, events, snapshot).ledger());
  }

  @Test
  void plainAndGzippedJsonReadThroughTheSnapshotsSerializerTooAndEventsKeepTheirBinding() throws Exception {
    assertEquals(31, SER.findSerializerFor(new LedgerEvent.QueuePaused(T)).identifier());
    LedgerSnapshot snapshot = queue(5_000);
    Serializer s = SER.findSerializerFor(snapshot);
    byte[] gzipped = SER.serializerByIdentity().apply(31).toBinary(snapshot);
    assertEquals(snapshot.ledger(), read(gzipped, s, snapshot).ledger());
    LedgerSnapshot small = queue(2);
    byte[] plain = SER.serializerByIdentity().apply(31).toBinary(small);
    assertEquals('{', (char) plain[0]);
    assertEquals(small.ledger(), read(plain, s, small).ledger());
  }
}

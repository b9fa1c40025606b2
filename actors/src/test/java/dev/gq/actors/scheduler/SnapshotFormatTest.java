package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.LedgerSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Snapshots are stored by their own Jackson binding, LZ4-compressed when large (gzip took most of
 * the CPU of storing one), and the snapshots stored before by the events' binding, gzipped, still
 * load; events keep their binding.
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

  @Test
  void aLargeSnapshotIsStoredByItsOwnBindingLz4CompressedAndReadsBack() throws Exception {
    LedgerSnapshot snapshot = queue(5_000);
    Serializer s = SER.findSerializerFor(snapshot);
    assertEquals(JournalConfig.SNAPSHOT_SERIALIZER_ID, s.identifier());
    byte[] bytes = s.toBinary(snapshot);
    assertFalse((bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b, "not gzip");
    assertNotEquals('{', (char) bytes[0], "compressed");
    LedgerSnapshot back = (LedgerSnapshot) SER.deserialize(bytes, s.identifier(), manifest(s, snapshot)).get();
    assertEquals(snapshot.ledger(), back.ledger());
  }

  @Test
  void aSnapshotStoredGzippedByTheEventsBindingStillLoads() throws Exception {
    LedgerSnapshot snapshot = queue(5_000);
    Serializer events = SER.serializerByIdentity().apply(31);
    byte[] old = events.toBinary(snapshot);
    assertTrue((old[0] & 0xff) == 0x1f && (old[1] & 0xff) == 0x8b, "the events' binding gzips what is large");
    LedgerSnapshot back = (LedgerSnapshot) SER.deserialize(old, 31, manifest(events, snapshot)).get();
    assertEquals(snapshot.ledger(), back.ledger());
  }

  @Test
  void eventsKeepTheirBindingAndASmallSnapshotIsPlainJson() {
    assertEquals(31, SER.findSerializerFor(new LedgerEvent.QueuePaused(T)).identifier());
    LedgerSnapshot small = queue(2);
    byte[] bytes = SER.findSerializerFor(small).toBinary(small);
    assertTrue(new String(bytes, StandardCharsets.UTF_8).startsWith("{\"nextId\":3"));
  }
}

package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.QueuePaused;
import dev.gq.persistence.LedgerSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The whole queue's hold, called {@code queueHeld} in code, is stored as {@code paused} in every
 * snapshot shape gq has written, and reads back held from each.
 */
class LedgerMigrationTest {
  private static final ActorTestKit KIT = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.actor.serialization-bindings {
        "dev.gq.core.ledger.Ledger" = jackson-json
        "dev.gq.persistence.LedgerSnapshot" = jackson-json
      }
      """));
  private static final Serialization SER = SerializationExtension.get(KIT.system().classicSystem());

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static Object read(String json, Class<?> stored, Object sample) {
    Serializer s = SER.findSerializerFor(sample);
    return SER.deserialize(json.getBytes(StandardCharsets.UTF_8), s.identifier(), stored.getName()).get();
  }

  @Test
  void aWholeLedgerStoredWithTheQueuePausedReadsBackHeld() {
    String old = "{\"nextId\":1,\"live\":{},\"keys\":{},\"paused\":true,\"holds\":{}}";
    assertTrue(((Ledger) read(old, Ledger.class, Ledger.empty())).queueHeld());
    String released = "{\"nextId\":1,\"live\":{},\"keys\":{},\"paused\":false,\"holds\":{}}";
    assertFalse(((Ledger) read(released, Ledger.class, Ledger.empty())).queueHeld());
  }

  @Test
  void aSnapshotKeepsTheStoredNameAndReadsItBack() {
    Ledger held = Ledger.empty().apply(new QueuePaused(Instant.EPOCH));
    String json = new String(SER.serialize(LedgerSnapshot.of(held)).get(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"paused\":true"), json);
    assertTrue(((LedgerSnapshot) read(json, LedgerSnapshot.class, LedgerSnapshot.of(held))).ledger().queueHeld());
  }
}

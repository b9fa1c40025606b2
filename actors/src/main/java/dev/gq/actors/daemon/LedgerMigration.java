package dev.gq.actors.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.pekko.serialization.jackson.JacksonMigration;

/**
 * Reads a snapshot stored as a whole {@code Ledger} (as gq wrote them before {@code LedgerSnapshot})
 * in the ledger's current shape: version 2 calls the whole queue's hold {@code queueHeld}, which
 * version 1 stored as {@code paused}. Bound to the ledger in the actors module's
 * {@code reference.conf}, so every actor system that reads snapshots uses it.
 */
public final class LedgerMigration extends JacksonMigration {
  @Override
  public int currentVersion() {
    return 2;
  }

  @Override
  public JsonNode transform(int fromVersion, JsonNode json) {
    if (fromVersion < 2 && json instanceof ObjectNode o && o.has("paused") && !o.has("queueHeld"))
      o.set("queueHeld", o.remove("paused"));
    return json;
  }
}

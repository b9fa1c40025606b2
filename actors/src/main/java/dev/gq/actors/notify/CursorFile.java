package dev.gq.actors.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.notify.NotifierMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The notifier's cursor (the sequence number of the last stored event whose messages were delivered
 * or given up) and its {@link NotifierMemory}, in {@code <data>/notify-cursor.json}, written
 * atomically after each delivery, so that a restarted daemon starts after what was sent and before
 * what was not.
 */
final class CursorFile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;

  record State(long cursor, NotifierMemory memory) {}

  CursorFile(Path dataDir) {
    this.file = dataDir.resolve("notify-cursor.json");
  }

  Path path() {
    return file;
  }

  /** The stored state; null when none was ever stored. */
  State read() throws IOException {
    if (!Files.exists(file)) return null;
    JsonNode n = JSON.readTree(file.toFile());
    var announced = map(n.path("announced"));
    var ended = map(n.path("ended_since_drain"));
    boolean drained = n.path("drained").asBoolean();
    // a cursor stored before the sweep and the longest run were remembered: its next drain is told
    NotifierMemory m = n.has("longest_ms")
        ? new NotifierMemory(announced, drained, ended, n.path("sweep").asText(null),
            Duration.ofMillis(n.path("longest_ms").asLong()), due(n.path("due")), held(n.path("held")))
        : new NotifierMemory(announced, drained, ended);
    return new State(n.path("cursor").asLong(), m);
  }

  void write(State s) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("cursor", s.cursor()).put("drained", s.memory().drained());
    ObjectNode a = n.putObject("announced");
    s.memory().announced().forEach(a::put);
    ObjectNode e = n.putObject("ended_since_drain");
    s.memory().endedSinceDrain().forEach(e::put);
    if (s.memory().sweep() != null) n.put("sweep", s.memory().sweep());
    n.put("longest_ms", s.memory().longest().toMillis());
    ObjectNode due = n.putObject("due");
    s.memory().due().forEach(due::put);
    s.memory().held().forEach(n.putArray("held")::add);
    PrivateFile.write(file, JSON.writeValueAsString(n) + "\n");
  }

  private static Set<String> held(JsonNode n) {
    Set<String> s = new TreeSet<>();
    n.forEach(g -> s.add(g.asText()));
    return s;
  }

  private static Map<String, Long> due(JsonNode n) {
    Map<String, Long> m = new LinkedHashMap<>();
    n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
    return m;
  }

  private static Map<String, Integer> map(JsonNode n) {
    Map<String, Integer> m = new LinkedHashMap<>();
    n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asInt()));
    return m;
  }
}

package dev.gq.actors.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.job.Durations;
import dev.gq.core.notify.NoticeKind;
import dev.gq.core.notify.NotifyTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The notification targets, in {@code <data>/notify.json} (mode 0600, since a webhook URL is a
 * secret), written atomically. Read at every delivery pass, so an edit takes effect at once; a file
 * that cannot be read counts as no target, and the reason is kept for {@code gq notify list}.
 */
final class TargetFile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;

  TargetFile(Path dataDir) {
    this.file = dataDir.resolve("notify.json");
  }

  Path path() {
    return file;
  }

  synchronized List<NotifyTarget> read() throws IOException {
    if (!Files.exists(file)) return List.of();
    List<NotifyTarget> out = new ArrayList<>();
    for (JsonNode t : JSON.readTree(file.toFile()).path("targets")) out.add(target(t));
    return out;
  }

  synchronized void write(List<NotifyTarget> targets) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode list = root.putArray("targets");
    for (NotifyTarget t : targets) {
      ObjectNode n = list.addObject();
      n.put("name", t.name()).put("kind", t.kind().word());
      if (t.address() != null) n.put("address", t.address());
      if (!t.argv().isEmpty()) t.argv().forEach(n.putArray("argv")::add);
      n.put("on", NoticeKind.words(t.on()));
      if (t.minRuntime() != null) n.put("min_runtime", Durations.format(t.minRuntime()));
    }
    PrivateFile.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
  }

  /** {@code base}, or {@code base-2}, {@code base-3} ...: the first that no target in {@code all} is named. */
  static String freeName(List<NotifyTarget> all, String base) {
    for (int i = 1; ; i++) {
      String n = i == 1 ? base : base + "-" + i;
      if (all.stream().noneMatch(t -> t.name().equals(n))) return n;
    }
  }

  private static NotifyTarget target(JsonNode t) {
    List<String> argv = new ArrayList<>();
    t.path("argv").forEach(a -> argv.add(a.asText()));
    String min = t.path("min_runtime").asText(null);
    return new NotifyTarget(t.path("name").asText(), NotifyTarget.Kind.of(t.path("kind").asText()),
        t.path("address").asText(null), argv, NoticeKind.parse(t.path("on").asText(NoticeKind.words(NoticeKind.DEFAULTS))),
        min == null ? null : Durations.parse(min));
  }
}

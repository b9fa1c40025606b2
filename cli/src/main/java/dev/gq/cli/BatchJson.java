package dev.gq.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One JSON line of a batch: an object with {@code argv} (required) and optionally {@code gpus},
 * {@code name}, {@code group}, {@code key}, {@code after}, {@code after_ok} (an id or a list of
 * ids), {@code retries}, {@code time} (a duration such as "2h") and {@code cwd}. Absent or null
 * members take the batch's defaults; any other member is refused, so a typo never passes.
 */
final class BatchJson {
  static final List<String> FIELDS = List.of("argv", "gpus", "name", "group", "key", "after", "after_ok", "retries", "time", "cwd");
  private static final ObjectMapper JSON = new ObjectMapper();

  private BatchJson() {}

  /** The spec a JSON line asks for; a problem is an {@link IllegalArgumentException} in one line. */
  static JobSpec spec(String text, BatchFile.Defaults d) {
    JsonNode n = parse(text);
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) throw new IllegalArgumentException("unknown member '" + f + "'; use " + String.join(", ", FIELDS));
    }
    List<String> argv = argv(n.get("argv"));
    int gpus = has(n, "gpus") ? count(n.get("gpus"), "gpus", 1_000_000) : d.gpus();
    String name = has(n, "name") ? label(n, "name") : d.name();
    String group = has(n, "group") ? label(n, "group") : d.group();
    String key = has(n, "key") ? label(n, "key") : null;
    String cwd = has(n, "cwd") ? cwd(n.get("cwd"), d.callerDir()) : d.cwd();
    JobSpec spec = new JobSpec(argv, cwd, d.env(), gpus, name, group, key);
    return scheduling(n).over(d.scheduling()).applyTo(spec);
  }

  private static JsonNode parse(String text) {
    try {
      JsonNode n = JSON.readTree(text);
      if (n == null || !n.isObject()) throw new IllegalArgumentException("a line starting with '{' must be one JSON object");
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage().lines().findFirst().orElse("?"));
    }
  }

  private static Scheduling scheduling(JsonNode n) {
    List<Dependency> deps = new ArrayList<>();
    addIds(deps, n.get("after"), "after", false);
    addIds(deps, n.get("after_ok"), "after_ok", true);
    Integer retries = has(n, "retries") ? count(n.get("retries"), "retries", Scheduling.MAX_RETRIES) : null;
    Duration time = null;
    if (has(n, "time")) {
      JsonNode t = n.get("time");
      time = t.isTextual() ? Durations.parse(t.asText()) : null;
      if (time == null) throw new IllegalArgumentException(Durations.problem(t.isTextual() ? t.asText() : t.toString(), " in 'time'"));
    }
    boolean anyDeps = has(n, "after") || has(n, "after_ok");
    return new Scheduling(anyDeps ? List.copyOf(deps) : null, retries, time);
  }

  private static void addIds(List<Dependency> out, JsonNode v, String member, boolean okOnly) {
    if (v == null || v.isNull()) return;
    List<JsonNode> items = new ArrayList<>();
    if (v.isArray()) v.forEach(items::add);
    else items.add(v);
    for (JsonNode item : items) {
      if (!item.isIntegralNumber() || item.asLong() < 1) {
        throw new IllegalArgumentException("'" + member + "' must be a job id or a list of job ids, like 12 or [12, 14]");
      }
      out.add(new Dependency(item.asLong(), okOnly));
    }
  }

  private static List<String> argv(JsonNode v) {
    if (v == null || !v.isArray() || v.isEmpty()) throw new IllegalArgumentException("'argv' must be a non-empty list of strings");
    List<String> out = new ArrayList<>();
    for (JsonNode a : v) {
      if (!a.isTextual()) throw new IllegalArgumentException("'argv' must be a non-empty list of strings");
      out.add(a.asText());
    }
    BatchFile.checkCommand(out);
    return out;
  }

  private static int count(JsonNode v, String member, int max) {
    if (!v.isIntegralNumber() || v.asLong() < 0 || v.asLong() > max) {
      throw new IllegalArgumentException("'" + member + "' must be a whole number from 0 to " + max);
    }
    return v.asInt();
  }

  private static String label(JsonNode n, String member) {
    JsonNode v = n.get(member);
    if (!v.isTextual()) throw new IllegalArgumentException("'" + member + "' must be a string");
    String problem = Labels.problem("the " + member, v.asText());
    if (problem != null) throw new IllegalArgumentException(problem);
    return v.asText();
  }

  private static String cwd(JsonNode v, Path callerDir) {
    if (!v.isTextual() || v.asText().isEmpty()) throw new IllegalArgumentException("'cwd' must be a directory path");
    try {
      Path p = callerDir.resolve(v.asText());
      if (!Files.isDirectory(p)) throw new IllegalArgumentException("the directory '" + v.asText() + "' does not exist");
      return p.toRealPath().toString();
    } catch (InvalidPathException | IOException e) {
      throw new IllegalArgumentException("the directory '" + v.asText() + "' cannot be used: " + e.getMessage());
    }
  }

  private static boolean has(JsonNode n, String member) {
    return n.has(member) && !n.get(member).isNull();
  }
}

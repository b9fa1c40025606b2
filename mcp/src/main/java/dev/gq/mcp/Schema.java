package dev.gq.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the JSON schema of a tool's arguments: an object with typed, described properties. */
final class Schema {
  private final Map<String, Object> properties = new LinkedHashMap<>();
  private final List<String> required = new ArrayList<>();

  static Schema object() {
    return new Schema();
  }

  Schema integer(String name, String description) {
    return prop(name, Map.of("type", "integer", "description", description));
  }

  Schema integers(String name, String description) {
    return prop(name, Map.of("type", "array", "items", Map.of("type", "integer", "minimum", 1), "description", description));
  }

  Schema string(String name, String description) {
    return prop(name, Map.of("type", "string", "description", description));
  }

  Schema strings(String name, String description) {
    return prop(name, Map.of("type", "array", "items", Map.of("type", "string"), "description", description));
  }

  Schema bool(String name, String description) {
    return prop(name, Map.of("type", "boolean", "description", description));
  }

  /** The write tools' confirmation: without it they only say what they would do. */
  Schema confirm() {
    return bool("confirm", "true to act. Without it nothing happens: the tool returns the exact gq command"
        + " and the jobs it would touch. Ask the user first, then call again with confirm: true.");
  }

  Schema required(String... names) {
    required.addAll(List.of(names));
    return this;
  }

  Map<String, Object> build() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    s.put("properties", properties);
    if (!required.isEmpty()) s.put("required", List.copyOf(required));
    s.put("additionalProperties", false);
    return s;
  }

  private Schema prop(String name, Map<String, Object> p) {
    properties.put(name, p);
    return this;
  }
}

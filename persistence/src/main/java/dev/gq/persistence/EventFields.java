package dev.gq.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a stored event's JSON into the flat fields {@code gq events} shows: {@code jobId} and
 * {@code at} are left out (they have their own columns), nested objects are merged into the top
 * level ({@code identity.pid} becomes {@code pid}), names become snake_case, a job's environment
 * is never included, and a reservation's GPU slots become {@code gpus} (indices) and
 * {@code gpu_uuids}. Generic over event types, so events written by older or newer gq still show.
 */
public final class EventFields {
  private static final Map<String, String> RENAMES = Map.of("spec.gpus", "requested_gpus");

  private EventFields() {}

  /** The fields of one event, in the order they were stored. */
  public static Map<String, Object> of(JsonNode event) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : event.properties()) {
      String name = f.getKey();
      if (name.equals("jobId") || name.equals("at")) continue;
      put(out, "", name, f.getValue());
    }
    return out;
  }

  private static void put(Map<String, Object> out, String parent, String name, JsonNode value) {
    if (name.equals("env")) return;
    String path = parent.isEmpty() ? name : parent + "." + name;
    if (value.isObject()) {
      for (Map.Entry<String, JsonNode> f : value.properties()) put(out, path, f.getKey(), f.getValue());
    } else if (name.equals("gpus") && value.isArray() && !value.isEmpty() && value.get(0).isObject()) {
      out.put("gpus", column(value, "index"));
      out.put("gpu_uuids", column(value, "uuid"));
    } else {
      String key = RENAMES.getOrDefault(path, snake(name));
      out.put(out.containsKey(key) ? snake(path.replace('.', '_')) : key, plain(value));
    }
  }

  private static List<Object> column(JsonNode slots, String name) {
    List<Object> values = new ArrayList<>();
    for (JsonNode slot : slots) values.add(plain(slot.path(name)));
    return values;
  }

  /** The node as plain Java: String, Long, Double, Boolean, List, Map, or null. */
  static Object plain(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) return null;
    if (n.isIntegralNumber()) return n.asLong();
    if (n.isNumber()) return n.asDouble();
    if (n.isBoolean()) return n.asBoolean();
    if (n.isTextual()) return n.asText();
    if (n.isArray()) {
      List<Object> list = new ArrayList<>();
      n.forEach(e -> list.add(plain(e)));
      return list;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : n.properties()) {
      if (!f.getKey().equals("env")) map.put(snake(f.getKey()), plain(f.getValue()));
    }
    return map;
  }

  static String snake(String camel) {
    StringBuilder sb = new StringBuilder(camel.length() + 4);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) sb.append('_');
        sb.append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}

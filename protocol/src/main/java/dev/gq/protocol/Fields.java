package dev.gq.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to the members of a decoded JSON object, with one-line messages such as
 * "invalid request: 'argv' must be a list of strings". Used by {@link ClientRequest} and {@link Frame}.
 */
final class Fields {
  private final String what;
  private final Map<String, Object> map;

  private Fields(String what, Map<String, Object> map) {
    this.what = what;
    this.map = map;
  }

  /** Parses {@code line} as a JSON object; {@code what} ("request", "frame") starts messages. */
  @SuppressWarnings("unchecked")
  static Fields parse(String what, String line) throws ProtocolException {
    Object v;
    try {
      v = Json.parse(line);
    } catch (ProtocolException e) {
      throw new ProtocolException("invalid " + what + ": " + e.getMessage());
    }
    if (!(v instanceof Map)) throw new ProtocolException("invalid " + what + ": not a JSON object");
    return new Fields(what, (Map<String, Object>) v);
  }

  boolean has(String name) {
    return map.get(name) != null;
  }

  String string(String name) throws ProtocolException {
    if (map.get(name) instanceof String s) return s;
    throw wrong(name, "a string");
  }

  /** A string, or null when the member is null or absent. */
  String stringOrNull(String name) throws ProtocolException {
    Object v = map.get(name);
    if (v == null || v instanceof String) return (String) v;
    throw wrong(name, "a string or null");
  }

  long integer(String name) throws ProtocolException {
    if (map.get(name) instanceof Long l) return l;
    throw wrong(name, "an integer");
  }

  int integer(String name, int min, int max) throws ProtocolException {
    long v = integer(name);
    if (v < min || v > max) throw wrong(name, "an integer from " + min + " to " + max);
    return (int) v;
  }

  boolean bool(String name, boolean absent) throws ProtocolException {
    Object v = map.get(name);
    if (v == null) return absent;
    if (v instanceof Boolean b) return b;
    throw wrong(name, "true or false");
  }

  List<String> stringList(String name) throws ProtocolException {
    if (!(map.get(name) instanceof List<?> list)) throw wrong(name, "a list of strings");
    List<String> out = new ArrayList<>(list.size());
    for (Object o : list) {
      if (!(o instanceof String s)) throw wrong(name, "a list of strings");
      out.add(s);
    }
    return Collections.unmodifiableList(out);
  }

  Map<String, String> stringMap(String name) throws ProtocolException {
    if (!(map.get(name) instanceof Map<?, ?> m)) throw wrong(name, "an object of strings");
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getValue() instanceof String s)) throw wrong(name, "an object of strings");
      out.put((String) e.getKey(), s);
    }
    return Collections.unmodifiableMap(out);
  }

  private ProtocolException wrong(String name, String expected) {
    String problem = map.containsKey(name) ? " must be " : " is missing; it must be ";
    return new ProtocolException("invalid " + what + ": '" + name + "'" + problem + expected);
  }
}

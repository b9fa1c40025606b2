package dev.gq.mcp;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one tool call, read with checks: each getter either returns a value the gq
 * command accepts as such or throws {@link BadArgument} naming the argument and what it takes.
 * Job ids are positive integers, written as JSON integers: neither {@code 12.0} nor {@code "12"} is one.
 */
public final class Args {
  private final String tool;
  private final Map<String, Object> values;

  /** The arguments of {@code tool}; a name not in {@code known} is refused. */
  Args(String tool, Map<String, Object> values, Set<String> known) {
    this.tool = tool;
    this.values = values == null ? Map.of() : values;
    for (String name : this.values.keySet()) {
      if (!known.contains(name)) {
        throw new BadArgument(tool + " has no argument '" + name + "'; it takes: " + String.join(", ", known.stream().sorted().toList()));
      }
    }
  }

  /** Whether the caller passed {@code confirm: true}. */
  boolean confirmed() {
    return flag("confirm");
  }

  boolean flag(String name) {
    Object v = values.get(name);
    if (v == null) return false;
    if (v instanceof Boolean b) return b;
    throw new BadArgument(tool + ": '" + name + "' must be true or false, not " + show(v));
  }

  long jobId(String name) {
    Long id = optionalJobId(name);
    if (id == null) throw new BadArgument(tool + " needs '" + name + "', a job id (an integer); find it with the ps tool, never guess it");
    return id;
  }

  Long optionalJobId(String name) {
    Object v = values.get(name);
    if (v == null) return null;
    long id = integer(name, v, "a job id (an integer); find it with the ps tool, never guess it");
    if (id < 1) throw new BadArgument(tool + ": '" + name + "' must be a job id of 1 or more, not " + id);
    return id;
  }

  /** A non-empty list of job ids; a single integer counts as a list of one. */
  List<Long> jobIds(String name) {
    Object v = values.get(name);
    if (v == null) throw new BadArgument(tool + " needs '" + name + "', a list of job ids (integers); find them with the ps tool, never guess them");
    List<Long> ids = new ArrayList<>();
    for (Object o : v instanceof List<?> l ? l : List.of(v)) {
      long id = integer(name, o, "a list of job ids (integers)");
      if (id < 1) throw new BadArgument(tool + ": '" + name + "' holds " + id + ", not a job id; job ids are 1 or more");
      if (!ids.contains(id)) ids.add(id);
    }
    if (ids.isEmpty()) throw new BadArgument(tool + ": '" + name + "' is empty; name at least one job id");
    return ids;
  }

  /** An optional list of job ids: empty when absent. */
  List<Long> optionalJobIds(String name) {
    return values.get(name) == null ? List.of() : jobIds(name);
  }

  int integer(String name, int dflt, int min, int max) {
    Object v = values.get(name);
    if (v == null) return dflt;
    long n = integer(name, v, "an integer from " + min + " to " + max);
    if (n < min || n > max) throw new BadArgument(tool + ": '" + name + "' must be from " + min + " to " + max + ", not " + n);
    return (int) n;
  }

  /** An optional non-empty string of one line; null when absent. */
  String string(String name) {
    Object v = values.get(name);
    if (v == null) return null;
    if (!(v instanceof String s)) throw new BadArgument(tool + ": '" + name + "' must be a string, not " + show(v));
    if (s.isBlank() || s.indexOf('\n') >= 0 || s.indexOf('\0') >= 0) {
      throw new BadArgument(tool + ": '" + name + "' must be one non-empty line");
    }
    return s;
  }

  /** A required non-empty list of strings (a command's argv). */
  List<String> strings(String name) {
    Object v = values.get(name);
    if (!(v instanceof List<?> l) || l.isEmpty()) {
      throw new BadArgument(tool + " needs '" + name + "', a non-empty list of strings (the command and its arguments, one word each)");
    }
    List<String> out = new ArrayList<>();
    for (Object o : l) {
      if (!(o instanceof String s) || s.indexOf('\0') >= 0) throw new BadArgument(tool + ": '" + name + "' must hold strings only, not " + show(o));
      out.add(s);
    }
    if (out.get(0).isEmpty()) throw new BadArgument(tool + ": '" + name + "' starts with an empty word; the first word is the program");
    return out;
  }

  /** An integer as JSON writes one, digits only: 1.0 and 1e0 are refused, as gq's batch lines refuse them. */
  private long integer(String name, Object v, String what) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
    String hint = v instanceof Double || v instanceof Float || v instanceof BigDecimal ? "; write it without a decimal point or exponent" : "";
    throw new BadArgument(tool + ": '" + name + "' must be " + what + ", not " + show(v) + hint);
  }

  private static String show(Object v) {
    return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
  }
}

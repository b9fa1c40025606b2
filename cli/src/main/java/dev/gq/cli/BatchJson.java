package dev.gq.cli;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.SpecRules;
import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One JSON line of a batch: an object with {@code argv} (required) and optionally {@code gpus},
 * {@code name}, {@code group}, {@code key}, {@code after}, {@code after_ok} (an id or a list of
 * ids), {@code retries}, {@code time} (a duration such as "2h"), {@code cwd}, {@code vram} (a size such as
 * "40G") and {@code gpu_type} (a type or a list of types). Absent or null
 * members take the batch's defaults; any other member is refused, so a typo never passes. Parsed
 * with the protocol's strict parser: a duplicate member, text after the object, an invalid escape
 * or a lone surrogate is refused, and an integer is taken only as written (never wrapped into range).
 */
final class BatchJson {
  static final List<String> FIELDS = List.of("argv", "gpus", "name", "group", "key", "after", "after_ok", "retries", "time", "cwd", "vram",
      "gpu_type", "share", "per_gpu");

  private BatchJson() {}

  /** The spec a JSON line asks for; a problem is an {@link IllegalArgumentException} in one line. */
  static JobSpec spec(String text, BatchDefaults d) {
    Map<String, Object> n = parse(text);
    for (String f : n.keySet()) {
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

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(String text) {
    Object v;
    try {
      v = Json.parseStrict(text);
    } catch (ProtocolException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    if (!(v instanceof Map)) throw new IllegalArgumentException("a line starting with '{' must be one JSON object");
    return (Map<String, Object>) v;
  }

  private static Scheduling scheduling(Map<String, Object> n) {
    List<Dependency> deps = new ArrayList<>();
    addIds(deps, n.get("after"), "after", false);
    addIds(deps, n.get("after_ok"), "after_ok", true);
    Integer retries = has(n, "retries") ? count(n.get("retries"), "retries", SpecRules.MAX_RETRIES) : null;
    Duration time = null;
    if (has(n, "time")) {
      Object t = n.get("time");
      time = t instanceof String s ? Durations.parse(s) : null;
      if (time == null) throw new IllegalArgumentException(Durations.problem(t instanceof String s ? s : String.valueOf(t), " in 'time'"));
      String over = Durations.tooLong(time, Durations.LONGEST, "'time'", (String) t);
      if (over != null) throw new IllegalArgumentException(over);
    }
    boolean anyDeps = has(n, "after") || has(n, "after_ok");
    return new Scheduling(anyDeps ? List.copyOf(deps) : null, retries, time).withNeed(need(n));
  }

  /** What each GPU must be: {@code vram} a size such as "40G", {@code gpu_type} a type or a list of types. */
  private static GpuNeed need(Map<String, Object> n) {
    long mib = 0;
    if (has(n, "vram")) {
      Object v = n.get("vram");
      String problem = v instanceof String s ? GpuNeed.sizeProblem("'vram'", s) : "'vram' must be a size such as \"40G\"";
      if (problem != null) throw new IllegalArgumentException(problem);
      mib = GpuNeed.parseMiB((String) v);
    }
    List<String> types = List.of();
    if (has(n, "gpu_type")) {
      Object v = n.get("gpu_type");
      List<?> items = v instanceof List<?> l ? l : List.of(v);
      if (items.isEmpty() || !items.stream().allMatch(i -> i instanceof String))
        throw new IllegalArgumentException("'gpu_type' must be a type or a list of types, like \"H100\" or [\"A100\", \"H100\"]");
      types = GpuNeed.parseTypes("'gpu_type'", String.join(",", items.stream().map(String.class::cast).toList()));
    }
    boolean share = false;
    if (has(n, "share")) {
      if (!(n.get("share") instanceof Boolean b)) throw new IllegalArgumentException("'share' must be true or false");
      share = b;
    }
    int perGpu = has(n, "per_gpu") ? count(n.get("per_gpu"), "per_gpu", GpuNeed.MAX_PER_GPU) : 0;
    if (has(n, "per_gpu") && perGpu < 1) throw new IllegalArgumentException("'per_gpu' must be from 1 to " + GpuNeed.MAX_PER_GPU);
    return GpuNeed.of(mib, types, share || perGpu > 0, perGpu);
  }

  private static void addIds(List<Dependency> out, Object v, String member, boolean okOnly) {
    if (v == null) return;
    List<?> items = v instanceof List<?> l ? l : List.of(v);
    for (Object item : items) {
      if (!(item instanceof Long id) || id < 1) {
        throw new IllegalArgumentException("'" + member + "' must be a job id or a list of job ids, like 12 or [12, 14]"
            + (item instanceof Number ? "; " + item + " is not one" : ""));
      }
      out.add(new Dependency(id, okOnly));
    }
  }

  private static List<String> argv(Object v) {
    if (!(v instanceof List<?> list) || list.isEmpty()) throw new IllegalArgumentException("'argv' must be a non-empty list of strings");
    List<String> out = new ArrayList<>();
    for (Object a : list) {
      if (!(a instanceof String s)) throw new IllegalArgumentException("'argv' must be a non-empty list of strings");
      out.add(s);
    }
    RunCommand.checkLineCommand(out);
    return out;
  }

  /** A whole number within [0, max], as written: an integer beyond a long is out of range, never wrapped. */
  private static int count(Object v, String member, int max) {
    if (!(v instanceof Long n) || n < 0 || n > max) {
      throw new IllegalArgumentException("'" + member + "' must be a whole number from 0 to " + max
          + (v instanceof Number ? ", not " + v : ""));
    }
    return n.intValue();
  }

  private static String label(Map<String, Object> n, String member) {
    if (!(n.get(member) instanceof String v)) throw new IllegalArgumentException("'" + member + "' must be a string");
    String problem = SpecRules.labelProblem("the " + member, v);
    if (problem != null) throw new IllegalArgumentException(problem);
    return v;
  }

  private static String cwd(Object v, Path callerDir) {
    if (!(v instanceof String dir) || dir.isEmpty()) throw new IllegalArgumentException("'cwd' must be a directory path");
    try {
      Path p = callerDir.resolve(dir);
      if (!Files.isDirectory(p)) throw new IllegalArgumentException("the directory '" + dir + "' does not exist");
      return p.toRealPath().toString();
    } catch (InvalidPathException | IOException e) {
      throw new IllegalArgumentException("the directory '" + dir + "' cannot be used: " + e.getMessage());
    }
  }

  private static boolean has(Map<String, Object> n, String member) {
    return n.get(member) != null;
  }
}

package dev.gq.mcp;

import dev.gq.mcp.GqRunner.Outcome;
import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a dry run says about the jobs a write would touch: one line a job, from
 * {@code gq ps --all --json}, with its name, state, how long it has run and its GPUs, or that
 * there is no such job.
 */
final class DryRunLines {
  private DryRunLines() {}

  static List<String> describe(Commands gq, List<Long> ids, Instant now) {
    List<String> argv = ReadTools.withIds(new ArrayList<>(List.of("ps", "--all", "--json")), ids);
    Outcome o = gq.raw(argv, gq.cwd());
    List<?> jobs;
    try {
      jobs = o.exitCode() == 0 && Json.parse(o.stdout()) instanceof List<?> l ? l : null;
    } catch (ProtocolException e) {
      jobs = null;
    }
    if (jobs == null) return List.of("could not list the jobs: " + (o.stderr().isBlank() ? o.stdout() : o.stderr()).strip());
    List<String> lines = new ArrayList<>();
    for (long id : ids) lines.add(line(id, find(jobs, id), now));
    return lines;
  }

  private static Map<?, ?> find(List<?> jobs, long id) {
    for (Object o : jobs) {
      if (o instanceof Map<?, ?> m && m.get("id") instanceof Number n && n.longValue() == id) return m;
    }
    return null;
  }

  static String line(long id, Map<?, ?> job, Instant now) {
    if (job == null) return "job " + id + ": no such job";
    StringBuilder sb = new StringBuilder("job ").append(id);
    if (job.get("name") instanceof String name) sb.append(" '").append(name).append('\'');
    sb.append(' ').append(job.get("state"));
    Instant start = instant(job.get("start_time"));
    if (start != null) {
      Instant end = instant(job.get("end_time"));
      sb.append(end == null ? ", running for " : ", ran for ").append(duration(Duration.between(start, end == null ? now : end)));
    }
    if (job.get("gpu_indices") instanceof List<?> g && !g.isEmpty()) sb.append(", GPUs ").append(joined(g));
    if (job.get("group") instanceof String group) sb.append(", group ").append(group);
    return sb.toString();
  }

  static String duration(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 60) return s + "s";
    if (s < 3600) return s / 60 + "m" + two(s % 60) + "s";
    if (s < 86400) return s / 3600 + "h" + two(s % 3600 / 60) + "m";
    return s / 86400 + "d" + two(s % 86400 / 3600) + "h";
  }

  private static String two(long n) {
    return n < 10 ? "0" + n : String.valueOf(n);
  }

  private static String joined(List<?> g) {
    StringBuilder sb = new StringBuilder();
    for (Object o : g) sb.append(sb.isEmpty() ? "" : ",").append(o);
    return sb.toString();
  }

  private static Instant instant(Object v) {
    if (!(v instanceof String s)) return null;
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}

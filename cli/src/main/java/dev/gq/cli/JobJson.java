package dev.gq.cli;

import dev.gq.core.cluster.ClusterTarget;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * A job as {@code gq ps --json} writes it, straight to text: the fields of {@link JsonView#job(Job, WaitReason)},
 * in its order, formatted as {@link JsonView#pretty} formats an element of an array (two spaces
 * further in), and strings escaped as {@link JsonEscapes} has Jackson escape them; no tree is built,
 * so that a list of 100,000 jobs is written in a fraction of the time. The two must write the same
 * bytes for every job, which a test holds them to: a field added to one is added to the other.
 */
final class JobJson {
  private static final String HEX = "0123456789abcdef";
  private final StringBuilder sb;
  private boolean first = true;

  private JobJson(StringBuilder sb) {
    this.sb = sb;
  }

  /** Appends {@code job} as an element of a pretty-printed array, from its indent to its closing brace. */
  static void element(StringBuilder sb, Job job, WaitReason wait) {
    sb.append("  {");
    JobJson j = new JobJson(sb);
    j.fields(job);
    j.name("wait_reason");
    if (wait == null || job.state() != JobState.WAITING) sb.append("null");
    else sb.append(PrettyJson.text(WaitJson.of(wait)).replace("\n", "\n    ")); // a nested object, two levels in
    sb.append("\n  }");
  }

  private void fields(Job job) {
    num("id", job.id());
    str("name", job.displayName());
    str("state", job.state().name());
    strings("argv", job.spec().argv());
    str("cwd", job.spec().cwd());
    num("requested_gpus", (long) job.spec().gpus());
    str("submit_time", time(job.submitTime()));
    str("start_time", time(job.startTime()));
    str("end_time", time(job.endTime()));
    num("pid", job.pid());
    num("pgid", job.identity() == null || job.adopted() ? null : job.identity().pgid());
    num("exit_code", job.exitCode() == null ? null : (long) job.exitCode());
    str("log_path", job.logPath());
    str("failure_reason", job.failureReason());
    List<GpuSlot> slots = job.gpus().isEmpty() ? List.of()
        : job.gpus().stream().sorted(Comparator.comparingInt(GpuSlot::index)).toList();
    strings("gpu_uuids", slots.stream().map(GpuSlot::uuid).toList());
    raw("gpu_indices", slots.stream().map(s -> String.valueOf(s.index())).toList());
    str("group", job.spec().group());
    str("key", job.spec().key());
    num("retry_of", job.retryOf());
    after(job.spec().after());
    num("retries", (long) job.spec().retries());
    num("time_limit_seconds", job.spec().timeLimit() == null ? null : job.spec().timeLimit().getSeconds());
    num("priority", (long) job.spec().priority());
    str("begin_time", time(job.spec().begin()));
    str("resume_arg", job.spec().resumeArg());
    str("resume_from", job.spec().resumeFrom());
    bool("adopted", job.adopted());
    str("backend", ClusterTarget.text(job.spec().cluster()));
    str("cluster_job_id", job.clusterId());
    GpuNeed need = job.spec().gpuNeed();
    num("vram_mib", need == null || need.vramMiB() == 0 ? null : need.vramMiB());
    strings("gpu_types", need == null ? List.of() : need.types());
    bool("share", need != null && need.share());
    num("per_gpu", need == null || need.perGpu() == 0 ? null : (long) need.perGpu());
    name("idle_since").append("null");
    name("unwell_gpus").append("[]");
  }

  private StringBuilder name(String name) {
    sb.append(first ? "\n    \"" : ",\n    \"").append(name).append("\": ");
    first = false;
    return sb;
  }

  private void str(String name, String value) {
    name(name);
    quoted(value);
  }

  private void num(String name, Long value) {
    name(name).append(value == null ? "null" : value.toString());
  }

  private void bool(String name, boolean value) {
    name(name).append(value);
  }

  private void strings(String name, List<String> values) {
    name(name);
    if (values.isEmpty()) sb.append("[]");
    else {
      sb.append('[');
      for (int i = 0; i < values.size(); i++) {
        sb.append(i == 0 ? "\n      " : ",\n      ");
        quoted(values.get(i));
      }
      sb.append("\n    ]");
    }
  }

  /** An array of numbers, already written. */
  private void raw(String name, List<String> values) {
    name(name);
    if (values.isEmpty()) sb.append("[]");
    else sb.append("[\n      ").append(String.join(",\n      ", values)).append("\n    ]");
  }

  private void after(List<Dependency> deps) {
    name("after");
    if (deps.isEmpty()) {
      sb.append("[]");
      return;
    }
    sb.append('[');
    for (int i = 0; i < deps.size(); i++) {
      sb.append(i == 0 ? "\n      {" : ",\n      {").append("\n        \"job_id\": ").append(deps.get(i).jobId())
          .append(",\n        \"ok_only\": ").append(deps.get(i).okOnly()).append("\n      }");
    }
    sb.append("\n    ]");
  }

  /** A time and its text; the last one written is kept, since the jobs of a batch share their submit time. */
  private record Written(Instant at, String text) {}

  private static volatile Written lastTime = new Written(Instant.EPOCH, Instant.EPOCH.toString());

  private static String time(Instant t) {
    if (t == null) return null;
    Written last = lastTime;
    if (last.at().equals(t)) return last.text();
    String text = t.toString();
    lastTime = new Written(t, text);
    return text;
  }

  /** {@code s} quoted, escaped as Jackson escapes it with {@link JsonEscapes}. */
  private void quoted(String s) {
    if (s == null) {
      sb.append("null");
      return;
    }
    sb.append('"');
    int plain = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7f || !PrintableText.hidden(c))) continue;
      sb.append(s, plain, i);
      plain = i + 1;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> hex(c, c < 0x20);
      }
    }
    sb.append(s, plain, s.length()).append('"');
  }

  /** A u-escape: a control character's in upper-case hex digits, as Jackson writes them; the others' in lower case. */
  private void hex(char c, boolean upper) {
    sb.append("\\u");
    for (int shift = 12; shift >= 0; shift -= 4) {
      char d = HEX.charAt(c >> shift & 15);
      sb.append(upper ? Character.toUpperCase(d) : d);
    }
  }
}

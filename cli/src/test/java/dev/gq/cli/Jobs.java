package dev.gq.cli;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builds jobs for tests with readable defaults. */
final class Jobs {
  static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

  private Jobs() {}

  static JobSpec spec(String... argv) {
    return new JobSpec(List.of(argv), "/work", Map.of("SECRET_THING", "x"), 1, null, null, null);
  }

  static JobSpec spec(int gpus, String name, String group, String key, String... argv) {
    return new JobSpec(List.of(argv), "/work", Map.of(), gpus, name, group, key);
  }

  static Job job(long id, JobState state, JobSpec spec) {
    boolean started = state != JobState.WAITING && state != JobState.CANCELLED;
    List<GpuSlot> slots = started && spec.gpus() > 0 ? slots(spec.gpus()) : List.of();
    ProcessIdentity who = started ? new ProcessIdentity(1000 + id, 1000 + id, 1000 + id, 5, "boot") : null;
    Integer code = state == JobState.DONE ? Integer.valueOf(0) : state == JobState.FAILED ? Integer.valueOf(3) : null;
    Instant end = state.terminal() ? T0.plusSeconds(60) : null;
    String reason = state == JobState.FAILED ? "command exited with status 3" : null;
    return new Job(id, spec, state, T0, started ? T0.plusSeconds(1) : null, end, slots, who, code,
        "/data/gq/logs/" + id + ".log", reason, "tag" + id, null);
  }

  static Job job(long id, JobState state) {
    return job(id, state, spec("python", "train.py"));
  }

  static List<GpuSlot> slots(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> new GpuSlot("GPU-uuid-" + i, i)).toList();
  }
}

package dev.gq.core;

import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small builders for the pure tests: specs, jobs, devices and GPU statuses with readable defaults. */
public final class Fixtures {
  public static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  public static final String BOOT = "boot-1";
  public static final long GIB = 1L << 30;

  private Fixtures() {}

  public static String uuid(int i) {
    return "GPU-" + i + "000-aaaa";
  }

  public static JobSpec spec(int gpus) {
    return new JobSpec(List.of("python", "train.py"), "/home/u", Map.of("PATH", "/usr/bin"), gpus, null, null, null);
  }

  public static JobSpec keyed(int gpus, String key) {
    return new JobSpec(List.of("python", "train.py"), "/home/u", Map.of(), gpus, null, null, key);
  }

  public static JobSpec argv(String... argv) {
    return new JobSpec(List.of(argv), "/home/u", Map.of(), 0, null, null, null);
  }

  public static String tag(long jobId) {
    return "tag-" + jobId;
  }

  /** The identity of a shim that leads its own session and group: pid = pgid = sid. */
  public static ProcessIdentity leader(long pid) {
    return new ProcessIdentity(pid, pid, pid, 5000 + pid, BOOT);
  }

  public static List<GpuSlot> slots(int... indices) {
    return Arrays.stream(indices).mapToObj(i -> new GpuSlot(uuid(i), i)).toList();
  }

  public static Job waiting(long id, int gpus) {
    return new Job(id, spec(gpus), JobState.WAITING, T0.plusSeconds(id), null, null, List.of(), null, null,
        "/logs/" + id + ".log", null, tag(id), null);
  }

  /** A job past WAITING holding the GPUs at {@code indices}; launched (leader pid = 100 × id) unless STARTING. */
  public static Job holding(long id, JobState state, int... indices) {
    ProcessIdentity who = state == JobState.STARTING ? null : leader(100 * id);
    return new Job(id, spec(indices.length), state, T0.plusSeconds(id), T0.plusSeconds(id + 1), null, slots(indices),
        who, null, "/logs/" + id + ".log", null, tag(id), null);
  }

  public static DeviceReading device(int index, long... pids) {
    List<GpuProcess> ps = Arrays.stream(pids).mapToObj(p -> new GpuProcess(p, 100L << 20)).toList();
    return new DeviceReading(index, uuid(index), "NVIDIA H200", 140 * GIB, ps.size() * (100L << 20), ps, null);
  }

  /** Facts of a process in job {@code id}'s session and group (its leader's pid is 100 × id). */
  public static ProcessFacts inJob(long pid, long id) {
    return new ProcessFacts(pid, 100 * id, 100 * id, tag(id));
  }

  /** Facts of a process that belongs to no job. */
  public static ProcessFacts stranger(long pid) {
    return new ProcessFacts(pid, pid, pid, null);
  }

  public static GpuStatus gpu(int index, GpuState state) {
    Long owner = state == GpuState.RESERVED || state == GpuState.RUNNING ? (long) (90 + index) : null;
    return new GpuStatus(index, uuid(index), "NVIDIA H200", state, owner, List.of(), 140 * GIB, 0, null);
  }

  public static GpuStatus free(int index) {
    return gpu(index, GpuState.FREE);
  }
}

package dev.gq.core.report;

import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.List;

/**
 * What a report needs of one job: its group (null: none), state, when it was submitted, when it
 * was given its GPUs ({@code start}, null while it waits) and ended (null while it is live), and the
 * GPUs it held, by UUID and index.
 */
public record JobSpan(long id, String group, JobState state, Instant submit, Instant start, Instant end,
    List<GpuRef> gpus) {
  public JobSpan {
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
  }

  /** One GPU: its UUID (its identity) and its NVML index (for display). */
  public record GpuRef(String uuid, int index) {}

  /** When the job left the queue: given its GPUs, or ended without ever being (cancelled while waiting); null while it waits. */
  public Instant leftQueue() {
    return start != null ? start : end;
  }
}

package dev.gq.core.adopt;

import dev.gq.core.job.GpuSlot;
import java.util.List;

/**
 * An adoption accepted: the new job's id, the GPUs it owns from now on (none: a 0-GPU job), the
 * regular file its stdout goes to, which is its log (null: none), and the processes of its tree that
 * the GPUs list (the adopted process itself, or a descendant: a shell's child that trains).
 */
public record AdoptOutcome(long jobId, List<GpuSlot> gpus, String logPath, List<Long> gpuPids) {
  public AdoptOutcome {
    gpus = List.copyOf(gpus);
    gpuPids = List.copyOf(gpuPids);
  }

  public AdoptOutcome(long jobId, List<GpuSlot> gpus, String logPath) {
    this(jobId, gpus, logPath, List.of());
  }
}

package dev.gq.core.adopt;

import dev.gq.core.job.GpuSlot;
import java.util.List;

/**
 * An adoption accepted: the new job's id, the GPUs it owns from now on (none: a 0-GPU job), and the
 * regular file its stdout goes to, which is its log (null: none).
 */
public record AdoptOutcome(long jobId, List<GpuSlot> gpus, String logPath) {
  public AdoptOutcome {
    gpus = List.copyOf(gpus);
  }
}

package dev.gq.core.adopt;

import dev.gq.core.job.GpuSlot;
import java.util.List;

/** An adoption accepted: the new job's id and the GPUs it owns from now on (none: a 0-GPU job). */
public record AdoptOutcome(long jobId, List<GpuSlot> gpus) {
  public AdoptOutcome {
    gpus = List.copyOf(gpus);
  }
}

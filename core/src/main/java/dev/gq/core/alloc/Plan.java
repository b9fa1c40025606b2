package dev.gq.core.alloc;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.WaitReason;
import java.util.List;
import java.util.Map;

/** Which waiting jobs go on which GPUs now, and why each of the others waits. */
public record Plan(List<Placement> placements, Map<Long, WaitReason> waitReasons) {

  public Plan {
    placements = List.copyOf(placements);
    waitReasons = Map.copyOf(waitReasons);
  }

  /** One job placed on these GPUs (empty for a CPU-only job). */
  public record Placement(long jobId, List<GpuSlot> gpus) {
    public Placement {
      gpus = List.copyOf(gpus);
    }
  }
}

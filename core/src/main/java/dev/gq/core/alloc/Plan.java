package dev.gq.core.alloc;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.WaitReason;
import java.util.List;
import java.util.Map;

/** The reservations to make now (which waiting jobs go on which GPUs), and why each of the others waits. */
public record Plan(List<Reservation> reservations, Map<Long, WaitReason> waitReasons) {

  public Plan {
    reservations = List.copyOf(reservations);
    waitReasons = Map.copyOf(waitReasons);
  }

  /** One job to reserve these GPUs for (none for a CPU-only job). */
  public record Reservation(long jobId, List<GpuSlot> gpus) {
    public Reservation {
      gpus = List.copyOf(gpus);
    }
  }
}

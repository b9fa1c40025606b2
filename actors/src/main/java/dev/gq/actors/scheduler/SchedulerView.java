package dev.gq.actors.scheduler;

import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the Scheduler shows readers at one moment: its ledger (immutable), the GPUs classified
 * from the latest reading and why each waiting job waits (the plan of that moment), the journal
 * sequence number this view
 * reflects, and the probe's description; each GPU's figures from the latest reading (by UUID; none
 * when it failed), each idle running job with the moment its GPUs last did something, and the
 * memory kept free on a shared GPU. The GPUs are classified, and the plan made, only when
 * {@link #gpus()} or {@link #waitReasons()} is first asked, on the asker's thread: many readers need
 * neither, and with a long queue they are the costly part (both go over every live job).
 */
public record SchedulerView(
    Ledger ledger,
    Supplier<List<GpuStatus>> classifiedGpus,
    Supplier<Map<Long, WaitReason>> plannedReasons,
    long seqNr,
    String probe,
    boolean fake,
    String gpuError,
    int gpuCount,
    boolean ready,
    Map<String, GpuFigures> figures,
    Map<Long, Instant> idle,
    long shareHeadroomMiB) {

  public SchedulerView {
    figures = figures == null ? Map.of() : Map.copyOf(figures);
    idle = idle == null ? Map.of() : Map.copyOf(idle);
  }

  /** The GPUs classified against this view's ledger, classified once; none before the first reading. */
  public List<GpuStatus> gpus() {
    return classifiedGpus.get();
  }

  /** Why each waiting job waits, by job id: the plan of this view's moment, made once. */
  public Map<Long, WaitReason> waitReasons() {
    return plannedReasons.get();
  }
}

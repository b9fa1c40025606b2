package dev.gq.actors.scheduler;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import java.util.List;
import java.util.Map;

/**
 * What the Scheduler shows readers at one moment: its ledger (immutable), the GPUs classified
 * from the latest reading, why each waiting job waits, the journal sequence number this view
 * reflects, the probe's description, and the memory kept free on a shared GPU.
 */
public record SchedulerView(
    Ledger ledger,
    List<GpuStatus> gpus,
    Map<Long, WaitReason> waitReasons,
    long seqNr,
    String probe,
    boolean fake,
    String gpuError,
    int gpuCount,
    boolean ready,
    long shareHeadroomMiB) {}

package dev.gq.core.schedule;

import dev.gq.core.alloc.Drains;
import dev.gq.core.alloc.GpuClassifier;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.HandOver;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The GPU registry: what gq knows of the GPUs besides the reservations in the ledger. It holds the
 * latest observation (a reading with the /proc facts and leases read after it), the devices of the
 * last good reading (so a failed reading keeps the GPUs in view, UNKNOWN), and the hand-over of GPUs
 * freed by ended jobs, each withheld until a reading taken after its job's end ({@link HandOver}).
 * Classifying it against a ledger gives each GPU's state, the only input the allocator places on.
 * Immutable: the Scheduler keeps one and replaces it with each reading and each end.
 */
public record GpuRegistry(GpuObservation latest, List<DeviceReading> lastKnown, HandOver handOver, String probe, boolean fake) {

  public GpuRegistry {
    lastKnown = List.copyOf(lastKnown);
  }

  /** Before the first reading. */
  public static GpuRegistry empty() {
    return new GpuRegistry(null, List.of(), HandOver.none(), "no GPU reading yet", false);
  }

  /** With the reading begun at {@code takenNanos}; null when it is older than the one in hand (it is not used). */
  public GpuRegistry observed(GpuObservation o, String probeText, boolean isFake, long takenNanos) {
    if (!handOver.accepts(takenNanos)) return null;
    return new GpuRegistry(o, o.reading().ok() ? o.reading().devices() : lastKnown, handOver.observed(takenNanos), probeText,
        isFake);
  }

  /** As {@link #observed}, keeping the probe's description. */
  public GpuRegistry observed(GpuObservation o, long takenNanos) {
    GpuRegistry next = observed(o, probe, fake, takenNanos);
    return next == null ? this : next;
  }

  /**
   * The GPUs that jobs {@code events} name held in {@code before} and no longer hold in {@code after}
   * were freed by jobs found ended at {@code endedNanos}: they wait for a reading taken after that.
   * Only the named jobs are looked at: the ledger may hold many waiting ones.
   */
  public GpuRegistry freed(Ledger before, Ledger after, List<LedgerEvent> events, long endedNanos) {
    Map<String, Long> freed = new HashMap<>();
    for (LedgerEvent e : events) {
      if (!(e instanceof LedgerEvent.JobEvent je)) continue;
      Job was = before.live().get(je.jobId());
      if (was == null || !was.state().holdsGpus()) continue;
      Job now = after.live().get(je.jobId());
      if (now == null || !now.state().holdsGpus()) was.gpus().forEach(g -> freed.put(g.uuid(), was.id()));
    }
    HandOver next = handOver.ended(freed, endedNanos);
    return next == handOver ? this : new GpuRegistry(latest, lastKnown, next, probe, fake);
  }

  /** Whether more freed GPUs wait for a reading here than in {@code before}: one should be taken now. */
  public boolean awaitsMoreThan(GpuRegistry before) {
    return handOver.awaiting().size() > before.handOver.awaiting().size();
  }

  /** Each GPU's state against {@code l}'s reservations and drains; null before the first reading. */
  public List<GpuStatus> classified(Ledger l) {
    if (latest == null) return null;
    return Drains.mark(handOver.withhold(GpuClassifier.classifyShared(latest, lastKnown, l.holders(), l.live().values())),
        l.settings().drained());
  }

  /** Whether a GPU {@code ended} held is, in {@code l}, neither reserved again nor FREE (or not read at all). */
  public boolean heldBack(Ledger l, Job ended) {
    Set<String> freed = ended.gpus().stream().map(GpuSlot::uuid).collect(Collectors.toSet());
    List<GpuStatus> gpus = freed.isEmpty() ? List.of() : classified(l);
    if (gpus == null) return true;
    Set<String> settled = gpus.stream()
        .filter(g -> g.ownerJobId() != null || g.state() == GpuState.FREE || g.state() == GpuState.DRAINED)
        .map(GpuStatus::uuid).collect(Collectors.toSet());
    return !settled.containsAll(freed);
  }

  /** How many GPUs are visible: -1 before the first good reading. */
  public int gpuCount() {
    if (latest == null) return -1;
    return latest.reading().ok() ? latest.reading().devices().size() : (lastKnown.isEmpty() ? -1 : lastKnown.size());
  }

  /** Why the latest reading failed; null when it did not, or before the first. */
  public String gpuError() {
    return latest == null ? null : latest.reading().error();
  }
}

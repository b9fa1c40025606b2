package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The Scheduler's non-persistent state: runners, the latest GPU observation, the freed GPUs that
 * wait for a reading taken since their job ended ({@link HandOver}), readiness.
 */
final class SchedulerRuntime {
  final Map<Long, ActorRef<JobRunner.Command>> runners = new HashMap<>();
  final List<ActorRef<Done>> awaitingReady = new ArrayList<>();
  boolean ready;
  boolean reconciling;
  /** A GPU freed since the last write waits for a reading: ask the watcher for one once it is stored. */
  boolean pollWanted;
  GpuObservation latest;
  HandOver handOver = HandOver.none();
  List<DeviceReading> lastKnown = List.of();
  String probe = "no GPU reading yet";
  boolean fake;
  /** Jobs whose runner saw their processes end and whose end it has not reported yet. */
  final Set<Long> ending = new java.util.HashSet<>();

  /** Takes the reading begun at {@code takenNanos}; false (and nothing changes) when it is older than the one in hand. */
  boolean observe(GpuObservation o, String probeText, boolean isFake, long takenNanos) {
    if (!handOver.accepts(takenNanos)) return false;
    latest = o;
    handOver = handOver.observed(takenNanos);
    probe = probeText;
    fake = isFake;
    if (o.reading().ok()) lastKnown = o.reading().devices();
    return true;
  }

  /**
   * The GPUs that jobs {@code events} name held in {@code before} and no longer hold in
   * {@code after} were freed by jobs found ended at {@code endedNanos}: they wait for a reading taken
   * after that (only the named jobs are looked at: the ledger may hold many waiting ones).
   */
  void freed(Ledger before, Ledger after, List<LedgerEvent> events, long endedNanos) {
    Map<String, Long> freed = new HashMap<>();
    for (LedgerEvent e : events) {
      if (!(e instanceof LedgerEvent.JobEvent je)) continue;
      Job was = before.live().get(je.jobId());
      if (was == null || !was.state().holdsGpus()) continue;
      Job now = after.live().get(je.jobId());
      if (now == null || !now.state().holdsGpus()) was.gpus().forEach(g -> freed.put(g.uuid(), was.id()));
    }
    HandOver next = handOver.ended(freed, endedNanos);
    if (next.awaiting().size() > handOver.awaiting().size()) pollWanted = true;
    handOver = next;
  }

  /** Whether a GPU {@code ended} held is, in {@code l}, neither reserved again nor FREE (or not read at all). */
  boolean heldBack(Ledger l, Job ended) {
    Set<String> freed = ended.gpus().stream().map(GpuSlot::uuid).collect(Collectors.toSet());
    List<GpuStatus> gpus = freed.isEmpty() ? List.of() : classified(l);
    if (gpus == null) return true;
    Set<String> settled = gpus.stream().filter(g -> g.ownerJobId() != null || g.state() == GpuState.FREE
        || g.state() == GpuState.DRAINED)
        .map(GpuStatus::uuid).collect(Collectors.toSet());
    return !settled.containsAll(freed);
  }

  List<GpuStatus> classified(Ledger l) {
    if (latest == null) return null;
    return Drains.mark(handOver.withhold(GpuClassifier.classify(latest, lastKnown, l.reservations(), l.live().values())),
        l.settings().drained());
  }

  int gpuCount() {
    if (latest == null) return -1;
    return latest.reading().ok() ? latest.reading().devices().size() : (lastKnown.isEmpty() ? -1 : lastKnown.size());
  }

  String gpuError() {
    return latest == null ? null : latest.reading().error();
  }
}

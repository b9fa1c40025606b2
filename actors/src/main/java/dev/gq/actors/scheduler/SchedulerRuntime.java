package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuClassifier;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.proc.ProcessCensus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;

/** The Scheduler's non-persistent state: runners, the latest GPU observation, readiness. */
final class SchedulerRuntime {
  final Map<Long, ActorRef<JobRunner.Command>> runners = new HashMap<>();
  final List<ActorRef<Done>> awaitingReady = new ArrayList<>();
  boolean ready;
  boolean reconciling;
  GpuObservation latest;
  long latestReceivedNanos;
  List<DeviceReading> lastKnown = List.of();
  String probe = "no GPU reading yet";
  boolean fake;

  void observe(GpuObservation o, String probeText, boolean isFake) {
    latest = o;
    latestReceivedNanos = System.nanoTime();
    probe = probeText;
    fake = isFake;
    if (o.reading().ok()) lastKnown = o.reading().devices();
  }

  /**
   * Drops from the latest reading the processes on {@code ended}'s GPUs that {@code census}, taken
   * after that reading arrived, no longer shows: they ended with the job, so its GPUs can be placed
   * at once. With no census, or an older one, the reading stays as it is (the next one decides).
   */
  void forgetEnded(Job ended, ProcessCensus census) {
    if (latest == null || census == null || !census.takenAfter(latestReceivedNanos)) return;
    latest = latest.withoutEnded(ended.gpus().stream().map(GpuSlot::uuid).collect(Collectors.toSet()), census.pids());
  }

  /** Whether a GPU {@code ended} held is, in {@code l}, neither reserved again nor FREE (or not read at all). */
  boolean heldBack(Ledger l, Job ended) {
    Set<String> freed = ended.gpus().stream().map(GpuSlot::uuid).collect(Collectors.toSet());
    List<GpuStatus> gpus = freed.isEmpty() ? List.of() : classified(l);
    if (gpus == null) return true;
    Set<String> settled = gpus.stream().filter(g -> g.ownerJobId() != null || g.state() == GpuState.FREE)
        .map(GpuStatus::uuid).collect(Collectors.toSet());
    return !settled.containsAll(freed);
  }

  List<GpuStatus> classified(Ledger l) {
    if (latest == null) return null;
    return GpuClassifier.classify(latest, lastKnown, l.reservations(), l.live().values());
  }

  int gpuCount() {
    if (latest == null) return -1;
    return latest.reading().ok() ? latest.reading().devices().size() : (lastKnown.isEmpty() ? -1 : lastKnown.size());
  }

  String gpuError() {
    return latest == null ? null : latest.reading().error();
  }
}

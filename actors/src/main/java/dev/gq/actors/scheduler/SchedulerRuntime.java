package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuClassifier;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.ledger.Ledger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;

/** The Scheduler's non-persistent state: runners, the latest GPU observation, readiness. */
final class SchedulerRuntime {
  final Map<Long, ActorRef<JobRunner.Command>> runners = new HashMap<>();
  final List<ActorRef<Done>> awaitingReady = new ArrayList<>();
  boolean ready;
  boolean reconciling;
  GpuObservation latest;
  List<DeviceReading> lastKnown = List.of();
  String probe = "no GPU reading yet";
  boolean fake;

  void observe(GpuObservation o, String probeText, boolean isFake) {
    latest = o;
    probe = probeText;
    fake = isFake;
    if (o.reading().ok()) lastKnown = o.reading().devices();
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

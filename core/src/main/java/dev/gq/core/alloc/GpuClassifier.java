package dev.gq.core.alloc;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The allocation invariant as a pure function: classifies every GPU from the latest reading, the
 * reservations and the /proc facts of the listed PIDs. First match per device: the reading failed
 * → UNKNOWN; reserved by J with a process J does not own, or J orphaned → UNKNOWN; reserved →
 * RESERVED (J starting) or RUNNING; not reserved with any compute process → EXTERNAL; else FREE.
 * An empty process list never frees a reserved GPU; utilization is never looked at.
 */
public final class GpuClassifier {
  private GpuClassifier() {}

  /**
   * @param lastKnown the devices of the last successful reading, shown UNKNOWN when the whole
   *     reading failed
   */
  public static List<GpuStatus> classify(
      GpuObservation obs, List<DeviceReading> lastKnown, Map<String, Job> reservations, Collection<Job> live) {
    List<GpuStatus> out = new ArrayList<>();
    if (!obs.reading().ok()) {
      for (DeviceReading d : lastKnown)
        out.add(status(d, GpuState.UNKNOWN, owner(reservations, d), "GPU query failed: " + obs.reading().error()));
      return out;
    }
    for (DeviceReading d : obs.reading().devices()) out.add(one(d, obs.facts(), reservations.get(d.uuid()), live));
    return out;
  }

  private static GpuStatus one(DeviceReading d, Map<Long, ProcessFacts> facts, Job holder, Collection<Job> live) {
    Long owner = holder == null ? null : holder.id();
    if (d.error() != null) return status(d, GpuState.UNKNOWN, owner, "cannot read this GPU: " + d.error());
    if (holder != null) {
      if (holder.state() == JobState.ORPHANED)
        return status(d, GpuState.UNKNOWN, owner, "held by orphaned job " + holder.id());
      List<GpuProcess> foreign = d.processes().stream().filter(p -> !Ownership.owns(holder, facts.get(p.pid()))).toList();
      if (!foreign.isEmpty())
        return status(d, GpuState.UNKNOWN, owner, "reserved for job " + holder.id() + " but used by process(es) it does not own: " + pids(foreign));
      return status(d, holder.state() == JobState.STARTING ? GpuState.RESERVED : GpuState.RUNNING, owner, null);
    }
    if (!d.processes().isEmpty()) return status(d, GpuState.EXTERNAL, null, external(d.processes(), facts, live));
    return status(d, GpuState.FREE, null, null);
  }

  private static String external(List<GpuProcess> procs, Map<Long, ProcessFacts> facts, Collection<Job> live) {
    List<String> parts = new ArrayList<>();
    for (GpuProcess p : procs) {
      var j = Ownership.ownerOf(p.pid(), facts, live);
      parts.add(j.isPresent() ? p.pid() + " (job " + j.get().id() + ", outside its GPUs)"
          : facts.containsKey(p.pid()) ? String.valueOf(p.pid()) : p.pid() + " (not visible in /proc)");
    }
    return "in use by process(es) gq does not manage here: " + String.join(", ", parts);
  }

  private static Long owner(Map<String, Job> reservations, DeviceReading d) {
    Job j = reservations.get(d.uuid());
    return j == null ? null : j.id();
  }

  private static String pids(List<GpuProcess> ps) {
    return ps.stream().map(p -> String.valueOf(p.pid())).collect(Collectors.joining(", "));
  }

  private static GpuStatus status(DeviceReading d, GpuState s, Long owner, String detail) {
    return new GpuStatus(d.index(), d.uuid(), d.name(), s, owner, d.processes(), d.totalBytes(), d.usedBytes(), detail);
  }
}

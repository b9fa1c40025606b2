package dev.gq.core.alloc;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One GPU reading together with the /proc facts of every PID it lists (absent = not visible in /proc). */
public record GpuObservation(GpuReading reading, Map<Long, ProcessFacts> facts) {
  public GpuObservation {
    facts = Map.copyOf(facts);
  }

  /**
   * This observation without the processes listed on {@code uuids} that are missing from
   * {@code livePids}, a look at /proc taken after this observation, and that /proc showed when
   * this observation was made: those processes have ended since (a PID reused later is another
   * process, which this reading never saw). A PID /proc did not show then is kept whatever the
   * later look says: it is never owned, so its GPU stays off-limits. Lets a job's
   * GPUs be placed as soon as it ends, instead of showing its dead processes as outside ones
   * until the next reading. Everything else is kept as read.
   */
  public GpuObservation withoutEnded(Set<String> uuids, Set<Long> livePids) {
    if (!reading.ok()) return this;
    List<DeviceReading> devices = new ArrayList<>();
    boolean changed = false;
    for (DeviceReading d : reading.devices()) {
      if (!uuids.contains(d.uuid()) || d.error() != null) {
        devices.add(d);
        continue;
      }
      // only a process /proc showed at the reading can be known to have ended: one it never
      // showed (another PID namespace, a ghost) is kept, and keeps the GPU off-limits
      List<DeviceReading.GpuProcess> kept = d.processes().stream()
          .filter(p -> livePids.contains(p.pid()) || !facts.containsKey(p.pid())).toList();
      changed |= kept.size() != d.processes().size();
      devices.add(new DeviceReading(d.index(), d.uuid(), d.name(), d.totalBytes(), d.usedBytes(), kept, null));
    }
    if (!changed) return this;
    Map<Long, ProcessFacts> stillListed = new HashMap<>();
    for (DeviceReading d : devices)
      for (DeviceReading.GpuProcess p : d.processes())
        if (facts.containsKey(p.pid())) stillListed.put(p.pid(), facts.get(p.pid()));
    return new GpuObservation(new GpuReading(reading.at(), devices, null), stillListed);
  }
}

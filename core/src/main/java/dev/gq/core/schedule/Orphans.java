package dev.gq.core.schedule;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Finds ORPHANED jobs whose GPUs a clean reading shows again, so they are reconciled once more. */
final class Orphans {
  private Orphans() {}

  static List<Job> returned(Ledger l, GpuReading r) {
    if (!r.ok() || r.devices().stream().anyMatch(d -> d.error() != null)) return List.of();
    Set<String> present = r.devices().stream().map(DeviceReading::uuid).collect(Collectors.toSet());
    List<Job> back = new ArrayList<>();
    // a plain loop: it runs at every reading, over every live job
    for (Job j : l.live().values())
      if (j.state() == JobState.ORPHANED && j.gpus().stream().map(GpuSlot::uuid).allMatch(present::contains)) back.add(j);
    return back.isEmpty() ? List.of() : List.copyOf(back);
  }

  /** A ledger holding only {@code jobs}, for the reconciler. */
  static Ledger only(Ledger l, List<Job> jobs) {
    TreeMap<Long, Job> m = new TreeMap<>();
    jobs.forEach(j -> m.put(j.id(), j));
    return new Ledger(l.nextId(), m, Map.of(), l.queueHeld(), l.holds());
  }
}

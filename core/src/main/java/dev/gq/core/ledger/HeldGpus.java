package dev.gq.core.ledger;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A ledger's GPU holders, worked out once for the live jobs last asked about. Finding them walks
 * every live job, and with a long queue most of a GPU view's work was that walk, made again for
 * every reader of the same ledger (each {@code gq top} frame, each reading the Scheduler
 * classifies) until the next stored event; a ledger's map of live jobs never changes, so the
 * answer for it never does.
 */
final class HeldGpus {
  private record Memo(Map<Long, Job> live, Map<String, List<Job>> holders) {}

  private static final AtomicReference<Memo> LAST = new AtomicReference<>();

  private HeldGpus() {}

  /** GPU UUID → every job of {@code live} that holds it; unmodifiable. */
  static Map<String, List<Job>> of(Map<Long, Job> live) {
    Memo m = LAST.get();
    if (m != null && m.live() == live) return m.holders();
    Map<String, List<Job>> r = new HashMap<>();
    for (Job j : live.values()) {
      if (!j.state().holdsGpus()) continue;
      for (GpuSlot s : j.gpus()) r.computeIfAbsent(s.uuid(), x -> new ArrayList<>()).add(j);
    }
    r.replaceAll((uuid, jobs) -> List.copyOf(jobs));
    Map<String, List<Job>> out = Map.copyOf(r);
    LAST.set(new Memo(live, out));
    return out;
  }
}

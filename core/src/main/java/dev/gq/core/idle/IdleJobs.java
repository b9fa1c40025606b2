package dev.gq.core.idle;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which running jobs hold GPUs that do nothing: since when every GPU of each RUNNING job has shown 0 %
 * utilisation ({@code zeroSince}), and which of them were already told idle in this stretch
 * ({@code told}). A job is idle once that has lasted longer than the threshold; one whose GPUs'
 * utilisation is unknown (a GPU that gives no figure, a failed reading) is never idle, and any reading
 * above 0 % ends the stretch. A hint only: it never makes a GPU free and gq never stops a job for it.
 * Immutable; the Scheduler keeps one, rebuilt at each start. Pure.
 */
public record IdleJobs(Map<Long, Instant> zeroSince, Set<Long> told) {

  /** No job idle. */
  public static final IdleJobs NONE = new IdleJobs(Map.of(), Set.of());

  public IdleJobs {
    zeroSince = Map.copyOf(zeroSince);
    told = Set.copyOf(told);
  }

  /** The watch after a reading, and the jobs that became idle with it (to be told once). */
  public record Seen(IdleJobs next, List<Long> becameIdle) {}

  /** What {@code reading}, taken {@code now}, says of {@code live}'s running jobs; {@code after} zero turns it off. */
  public Seen observed(Iterable<Job> live, GpuReading reading, Instant now, Duration after) {
    if (after.isZero() || after.isNegative()) return new Seen(NONE, List.of());
    Map<String, Integer> util = utilisation(reading);
    Map<Long, Instant> since = new HashMap<>();
    Set<Long> stillTold = new HashSet<>();
    List<Long> became = new ArrayList<>();
    for (Job j : live) {
      if (j.state() != JobState.RUNNING || j.gpus().isEmpty() || !allZero(j, util)) continue;
      Instant from = zeroSince.getOrDefault(j.id(), now);
      since.put(j.id(), from);
      boolean idle = Duration.between(from, now).compareTo(after) > 0;
      if (told.contains(j.id())) stillTold.add(j.id());
      else if (idle) {
        stillTold.add(j.id());
        became.add(j.id());
      }
    }
    IdleJobs next = since.equals(zeroSince) && stillTold.equals(told) ? this : new IdleJobs(since, stillTold);
    return new Seen(next, List.copyOf(became));
  }

  /** Since when job {@code id} is idle at {@code now}; null when it is not (yet). */
  public Instant idleSince(long id, Instant now, Duration after) {
    Instant from = zeroSince.get(id);
    if (from == null || after.isZero() || Duration.between(from, now).compareTo(after) <= 0) return null;
    return from;
  }

  /** Each idle job at {@code now} with the moment its GPUs last did something. */
  public Map<Long, Instant> idle(Instant now, Duration after) {
    Map<Long, Instant> out = new HashMap<>();
    zeroSince.keySet().forEach(id -> {
      Instant from = idleSince(id, now, after);
      if (from != null) out.put(id, from);
    });
    return Map.copyOf(out);
  }

  /** Each device's utilisation by UUID; none for a failed reading or a device that gives none. */
  private static Map<String, Integer> utilisation(GpuReading reading) {
    Map<String, Integer> out = new HashMap<>();
    if (reading == null || !reading.ok()) return out;
    for (DeviceReading d : reading.devices()) {
      if (d.error() == null && d.figures().utilPercent() != null) out.put(d.uuid(), d.figures().utilPercent());
    }
    return out;
  }

  private static boolean allZero(Job j, Map<String, Integer> util) {
    for (GpuSlot g : j.gpus()) {
      Integer u = util.get(g.uuid());
      if (u == null || u != 0) return false;
    }
    return true;
  }
}

package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When a GPU freed by an ended job may go to the next job: only on a reading taken after every
 * process of the job was seen gone. A reading from before the end cannot show a process of the
 * job that opened its context after it, nor one that only looked like an outside process then; so
 * each freed GPU waits here, withheld (UNKNOWN, never placed), until a reading taken after its job's
 * end comes. It also keeps the readings in order: one taken before the reading in hand is stale
 * and is not used. Moments are {@code System.nanoTime()} values, compared by subtraction;
 * {@code readNanos} is when the reading in hand was taken ({@code read} false: none yet). Pure; the
 * Scheduler keeps one and folds every reading and every end into it.
 */
public record HandOver(boolean read, long readNanos, Map<String, Freed> awaiting) {

  /** A GPU job {@code jobId} held until it was found ended at {@code endedNanos}. */
  public record Freed(long jobId, long endedNanos) {}

  public HandOver {
    awaiting = Map.copyOf(awaiting);
  }

  public static HandOver none() {
    return new HandOver(false, 0, Map.of());
  }

  /** Whether a reading taken at {@code takenNanos} is not older than the one in hand. */
  public boolean accepts(long takenNanos) {
    return !read || takenNanos - readNanos >= 0;
  }

  /** A reading taken at {@code takenNanos} is now in hand: the GPUs freed before that are seen. */
  public HandOver observed(long takenNanos) {
    if (!accepts(takenNanos)) return this;
    Map<String, Freed> still = new HashMap<>();
    awaiting.forEach((uuid, f) -> {
      if (takenNanos - f.endedNanos() <= 0) still.put(uuid, f);
    });
    return new HandOver(true, takenNanos, still);
  }

  /**
   * {@code freed} (GPU UUID → the job that held it) was found ended at {@code endedNanos}: its GPUs
   * wait for a reading taken after that, unless the one in hand already is.
   */
  public HandOver ended(Map<String, Long> freed, long endedNanos) {
    if (freed.isEmpty() || (read && readNanos - endedNanos > 0)) return this;
    Map<String, Freed> more = new HashMap<>(awaiting);
    freed.forEach((uuid, job) -> more.put(uuid, new Freed(job, endedNanos)));
    return new HandOver(read, readNanos, more);
  }

  /** Whether a freed GPU still waits for a reading. */
  public boolean waiting() {
    return !awaiting.isEmpty();
  }

  /**
   * {@code gpus} with each FREE one that still waits shown UNKNOWN, saying why; a SHARED one that a
   * shared job just left likewise (its other shared jobs stay listed), so no job joins it before a
   * reading shows what the ended job left there.
   */
  public List<GpuStatus> withhold(List<GpuStatus> gpus) {
    if (awaiting.isEmpty()) return gpus;
    return gpus.stream().map(g -> {
      Freed f = awaiting.get(g.uuid());
      if (f != null && g.state() == GpuState.SHARED)
        return g.with(GpuState.UNKNOWN, g.ownerJobId(), "shared job " + f.jobId() + " just ended here; waiting for a GPU reading taken since",
            null, g.shares());
      if (f == null || g.state() != GpuState.FREE) return g;
      return new GpuStatus(g.index(), g.uuid(), g.name(), GpuState.UNKNOWN, null, g.processes(), g.totalBytes(),
          g.usedBytes(), "job " + f.jobId() + " just ended here; waiting for a GPU reading taken since");
    }).toList();
  }
}

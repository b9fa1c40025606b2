package dev.gq.core.report;

import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a report needs of one job: its group (null: none), state, when it was submitted, when it
 * was given its GPUs ({@code start}, null while it waits) and ended (null while it is live), the
 * GPUs it held, by UUID and index, and, for a shared job ({@code --share}), what it declared of each
 * card ({@code share}; null: it had its cards to itself).
 */
public record JobSpan(long id, String group, JobState state, Instant submit, Instant start, Instant end,
    List<GpuRef> gpus, Share share) {
  public JobSpan {
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
  }

  /** A job that had its GPUs to itself. */
  public JobSpan(long id, String group, JobState state, Instant submit, Instant start, Instant end, List<GpuRef> gpus) {
    this(id, group, state, submit, start, end, gpus, null);
  }

  /** One GPU: its UUID (its identity), its NVML index (for display) and its total memory (0: not known). */
  public record GpuRef(String uuid, int index, long totalMiB) {
    public GpuRef(String uuid, int index) {
      this(uuid, index, 0);
    }
  }

  /** What a shared job declared of each card: {@code mib} ({@code --vram}; 0: none) or one {@code perGpu}-th ({@code --per-gpu}). */
  public record Share(long mib, int perGpu) {}

  /** When the job left the queue: given its GPUs, or ended without ever being (cancelled while waiting); null while it waits. */
  public Instant leftQueue() {
    return start != null ? start : end;
  }

  /**
   * How much of a card of {@code totalMiB} (0: not known) the job held: all of it unless it shared
   * the card, then its declared memory over the card's total (one K-th for {@code --per-gpu K}),
   * at most all of it; all of it when the card's total is not known.
   */
  public double shareOf(long totalMiB) {
    if (share == null) return 1;
    if (share.mib() > 0) return totalMiB <= 0 ? 1 : Math.min(1, (double) share.mib() / totalMiB);
    return share.perGpu() > 0 ? 1.0 / share.perGpu() : 1;
  }

  /** How much of GPU {@code uuid} the job held, the cards' totals being {@code totalsMiB}. */
  double shareOf(String uuid, Map<String, Long> totalsMiB) {
    return shareOf(totalsMiB.getOrDefault(uuid, 0L));
  }
}

package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.WaitReason;
import dev.gq.core.job.WaitReason.GpuBlock;
import dev.gq.core.job.WaitReason.GpuHolder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Whether a shared job ({@code --share}) fits on a GPU beside the shared jobs already there, and
 * why it waits when it fits on none. A GPU takes one more shared job when it is FREE or SHARED (never
 * beside an exclusive job or a process gq does not own: those GPUs are neither), is of the type and
 * size the job asks for, none of its shared jobs uses more than it declared, the cap on jobs per GPU
 * that any of them (or the new job) asked for is not reached, and the memory they all declared plus
 * the new job's plus the headroom is at most the card's total. Pure.
 */
public final class SharedFit {
  private SharedFit() {}

  /** Whether a shared job of {@code spec} may join {@code g} now. */
  public static boolean fits(JobSpec spec, GpuStatus g, long headroomMiB) {
    return why(spec, g, headroomMiB) == null;
  }

  /** What is left of {@code g} after a job of {@code spec} joins it, in MiB. */
  static long leftAfter(JobSpec spec, GpuStatus g, long headroomMiB) {
    return g.leftMiB(headroomMiB) - spec.gpuNeed().declaredMiB(g.totalMiB(), headroomMiB);
  }

  /** Why a shared job of {@code spec} may not join {@code g} now ("GPU 0 has 12.0 GiB left"), or null. */
  static GpuBlock why(JobSpec spec, GpuStatus g, long headroomMiB) {
    GpuNeed need = spec.gpuNeed();
    if (!GpuFit.fits(spec, g)) return new GpuBlock.Unfit(g.index());
    if (g.state() != GpuState.FREE && !(g.state() == GpuState.SHARED && g.detail() == null))
      return new GpuBlock.Taken(g.index(), GpuHolder.of(g), g.state() == GpuState.SHARED ? g.detail() : null);
    List<GpuStatus.Share> over = g.overShares(headroomMiB);
    if (!over.isEmpty()) {
      GpuStatus.Share s = over.get(0);
      return new GpuBlock.OverShare(g.index(), s.jobId(), s.usedMiB(), s.declaredMiB(g.totalMiB(), headroomMiB));
    }
    int cap = cap(need.perGpu(), g);
    if (cap > 0 && g.shareCount() + 1 > cap) return new GpuBlock.AtCap(g.index(), g.shareCount(), cap);
    if (leftAfter(spec, g, headroomMiB) < 0) return new GpuBlock.NoRoom(g.index(), g.leftMiB(headroomMiB));
    return null;
  }

  /** The smallest cap of shared jobs per GPU that {@code perGpu} and the jobs on {@code g} asked for, other gq's included; 0: none. */
  static int cap(int perGpu, GpuStatus g) {
    int cap = perGpu;
    for (GpuStatus.Share s : g.shares()) if (s.perGpu() > 0 && (cap == 0 || s.perGpu() < cap)) cap = s.perGpu();
    for (GpuStatus.Other o : g.others()) if (o.perGpu() > 0 && (cap == 0 || o.perGpu() < cap)) cap = o.perGpu();
    return cap;
  }

  /** {@code g} with job {@code j} sharing it too, as the plan now has it. */
  static GpuStatus with(GpuStatus g, Job j) {
    List<GpuStatus.Share> shares = new ArrayList<>(g.shares());
    GpuNeed need = j.spec().gpuNeed();
    shares.add(new GpuStatus.Share(j.id(), need.vramMiB(), need.perGpu(), 0));
    return g.with(GpuState.SHARED, g.ownerJobId() != null ? g.ownerJobId() : j.id(), null, g.heldBy(), shares);
  }

  /**
   * Why a shared job of {@code spec} waits: "needs 18.6 GiB on a shared GPU: GPU 0 has 12.0 GiB left; GPU
   * 1: job 4". {@code sharedNow} holds the SHARED GPUs as the plan has them so far.
   */
  static WaitReason waiting(JobSpec spec, List<GpuStatus> gpus, Map<String, GpuStatus> sharedNow, long headroomMiB) {
    GpuNeed need = spec.gpuNeed();
    int n = spec.gpus();
    List<GpuStatus> fit = gpus.stream().filter(g -> GpuFit.fits(spec, g)).sorted(Comparator.comparingInt(GpuStatus::index)).toList();
    if (fit.isEmpty()) return new WaitReason.NoGpuFits(n, need);
    if (fit.size() < n) return new WaitReason.TooFewFit(n, need, fit.stream().map(GpuStatus::index).toList());
    List<GpuBlock> why = new ArrayList<>();
    for (GpuStatus g : fit) {
      GpuBlock w = why(spec, sharedNow.getOrDefault(g.uuid(), g), headroomMiB);
      if (w != null) why.add(w);
    }
    return new WaitReason.SharedGpusFull(n, need, why);
  }

  /**
   * "jobs 4 (18.6G), 5 (18.6G), bob's job 3 (18.6G); 15.0G left": the shares of a SHARED GPU as 'gq gpu'
   * shows them, this gq's jobs first, then other instances'.
   */
  public static String describe(GpuStatus g, long headroomMiB) {
    List<String> parts = new ArrayList<>();
    if (!g.shares().isEmpty()) parts.add("job" + (g.shares().size() == 1 ? " " : "s ") + g.shares().stream().map(s -> {
      String mine = s.jobId() + " (" + MemoryText.brief(s.declaredMiB(g.totalMiB(), headroomMiB));
      if (s.over(g.totalMiB(), headroomMiB)) mine += ", uses " + MemoryText.brief(s.usedMiB()) + ": over";
      return mine + ")";
    }).collect(Collectors.joining(", ")));
    for (GpuStatus.Other o : g.others())
      parts.add(o.holder() + " (" + (o.mib() >= g.totalMiB() && o.holder().startsWith("a gq job") ? "all"
          : MemoryText.brief(o.mib())) + ")");
    return String.join(", ", parts) + "; " + MemoryText.brief(Math.max(0, g.leftMiB(headroomMiB))) + " left";
  }
}

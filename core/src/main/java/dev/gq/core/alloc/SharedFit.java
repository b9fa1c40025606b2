package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.WaitReason;
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
  static String why(JobSpec spec, GpuStatus g, long headroomMiB) {
    GpuNeed need = spec.gpuNeed();
    if (!GpuFit.fits(spec, g)) return "GPU " + g.index() + " does not fit";
    if (g.state() != GpuState.FREE && !(g.state() == GpuState.SHARED && g.detail() == null))
      return "GPU " + g.index() + ": " + (g.state() == GpuState.SHARED ? g.detail() : GpuHolders.holder(g));
    List<GpuStatus.Share> over = g.overShares(headroomMiB);
    if (!over.isEmpty()) {
      GpuStatus.Share s = over.get(0);
      return "GPU " + g.index() + ": job " + s.jobId() + " uses " + MemoryText.words(s.usedMiB()) + " of its "
          + MemoryText.words(s.declaredMiB(g.totalMiB(), headroomMiB)) + ", no more jobs go there";
    }
    int cap = cap(need.perGpu(), g);
    if (cap > 0 && g.shareCount() + 1 > cap)
      return "GPU " + g.index() + " holds " + g.shareCount() + " shared job" + (g.shareCount() == 1 ? "" : "s")
          + " (--per-gpu " + cap + ")";
    if (leftAfter(spec, g, headroomMiB) < 0)
      return "GPU " + g.index() + " has " + MemoryText.words(Math.max(0, g.leftMiB(headroomMiB))) + " left";
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
    String what = need.vramMiB() > 0 ? MemoryText.words(need.vramMiB()) : "1/" + need.perGpu() + " of a GPU";
    String asked = "needs " + what + (n == 1 ? " on a shared GPU" : " on each of " + n + " shared GPUs")
        + (need.types().isEmpty() ? "" : " of type " + String.join(" or ", need.types()));
    List<GpuStatus> fit = gpus.stream().filter(g -> GpuFit.fits(spec, g)).sorted(Comparator.comparingInt(GpuStatus::index)).toList();
    if (fit.isEmpty()) return new WaitReason("no GPU fits", asked + ": no GPU here fits; see 'gq gpu'");
    if (fit.size() < n) return new WaitReason("too few fit", asked + ": only " + fit.size() + " GPU"
        + (fit.size() == 1 ? "" : "s") + " here fit; see 'gq gpu'");
    List<String> why = new ArrayList<>();
    boolean over = false;
    for (GpuStatus g : fit) {
      GpuStatus now = sharedNow.getOrDefault(g.uuid(), g);
      String w = why(spec, now, headroomMiB);
      if (w == null) continue;
      over |= w.endsWith("no more jobs go there");
      why.add(w);
    }
    if (why.isEmpty()) return new WaitReason("shared GPUs full", asked);
    int shown = Math.min(4, why.size());
    String text = asked + ": " + String.join("; ", why.subList(0, shown)) + (why.size() > shown ? "; +" + (why.size() - shown) + " more" : "");
    return new WaitReason(over ? "over its share" : "shared GPUs full", text);
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

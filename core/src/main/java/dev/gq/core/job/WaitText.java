package dev.gq.core.job;

import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.WaitReason.GpuBlock;
import dev.gq.core.job.WaitReason.GpuHolder;
import dev.gq.core.job.WaitReason.Wanting;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The words of a {@link WaitReason}, the one place they are written: its brief for a table column and
 * its whole sentence. Every reader (gq ps, gq show, gq top, gq wait, the lab's page, {@code --json}'s
 * text) prints these. Pure.
 */
public final class WaitText {
  /** How many GPUs a list of busy or blocked ones names before "+N more". */
  private static final int SHOWN = 4;

  private WaitText() {}

  /** "GPUs busy", "after 12", "begins in 25m". */
  public static String brief(WaitReason r) {
    return switch (r) {
      case WaitReason.Held h -> "held";
      case WaitReason.QueueHeld q -> "queue held";
      case WaitReason.GroupHeld g -> "group held";
      case WaitReason.After a -> (a.okOnly() ? "after-ok " : "after ") + a.job();
      case WaitReason.AfterFailed a -> a.job() + " ended " + a.ended();
      case WaitReason.AfterPreempted a -> a.job() + " preempted";
      case WaitReason.Begins b -> "begins " + in(b.begin(), b.now());
      case WaitReason.GroupAtMax g -> "group at max";
      case WaitReason.CpuJobsAtMax c -> "CPU jobs at max";
      case WaitReason.NoGpuReading n -> "no GPU reading";
      case WaitReason.GpusBusy b -> "GPUs busy";
      case WaitReason.FewerFree f -> "GPUs busy";
      case WaitReason.NoGpuFits n -> "no GPU fits";
      case WaitReason.TooFewFit t -> "too few fit";
      case WaitReason.FittingGpusBusy f -> "fitting GPUs busy";
      case WaitReason.SharedGpusFull s -> s.code() == WaitReason.Code.OVER_ITS_SHARE ? "over its share" : "shared GPUs full";
      case WaitReason.Gathering g -> "GPUs gather";
      case WaitReason.GatheringFor g -> "gathering for " + g.job();
      case WaitReason.FailFastCheck f -> "fail-fast check";
      case WaitReason.BookedGpu b -> "booked";
      case WaitReason.Booked b -> "booked";
      case WaitReason.InTurn t -> brief(t.reason());
      case WaitReason.UserLimit u -> "user limit";
      case WaitReason.FairShare f -> "fair share";
      case WaitReason.StartFailed s -> "start failed " + s.failures() + "x";
      case WaitReason.ToSlurm t -> "to Slurm";
      case WaitReason.SlurmQueued s -> "Slurm " + s.clusterJob();
    };
  }

  /** "needs 2 GPUs, 1 free (GPU 0: job 4; GPU 2: outside process)". */
  public static String text(WaitReason r) {
    return switch (r) {
      case WaitReason.Held h -> "held by the user; 'gq release " + h.job() + "' lets it start";
      case WaitReason.QueueHeld q -> "the queue is held; 'gq release --all' lets jobs start";
      case WaitReason.GroupHeld g -> "group " + g.group() + " is held: " + g.why();
      case WaitReason.After a -> "waiting for job " + a.job() + (a.okOnly() ? " to succeed" : " to end");
      case WaitReason.AfterFailed a -> "job " + a.job() + ", which had to succeed first, ended " + a.ended();
      case WaitReason.AfterPreempted a ->
          "job " + a.job() + " was preempted; this job waits for its resume ('gq resume " + a.job() + "')";
      case WaitReason.Begins b -> "may not start before " + b.begin().truncatedTo(ChronoUnit.SECONDS) + " (--begin)";
      case WaitReason.GroupAtMax g ->
          "group " + g.group() + " has its most jobs running at once (--max-running " + g.maxRunning() + ")";
      case WaitReason.CpuJobsAtMax c -> "the most CPU-only jobs allowed at once already run (GQ_MAX_CPU_JOBS)";
      case WaitReason.NoGpuReading n -> "waiting for the first GPU reading";
      case WaitReason.GpusBusy b -> "needs " + gpus(b.wanted()) + ", " + b.free() + " free" + holders(b.busy(), " (", ")");
      case WaitReason.FewerFree f -> "fewer GPUs free than the job needs";
      case WaitReason.NoGpuFits n -> asked(n.wanted(), n.need()) + ": no GPU here fits; see 'gq gpu'";
      case WaitReason.TooFewFit t -> asked(t.wanted(), t.need()) + ": only " + (t.need().share()
          ? t.fitting().size() + " GPU" + (t.fitting().size() == 1 ? "" : "s") + " here fit" : fitting(t.fitting()))
          + "; see 'gq gpu'";
      case WaitReason.FittingGpusBusy f -> asked(f.wanted(), f.need()) + ": " + fitting(f.fitting()) + ", "
          + (f.free() > 0 ? f.free() + " free" : f.fitting().size() == 1 ? "busy" : f.fitting().size() == 2 ? "both busy" : "all busy")
          + holders(f.busy(), " (", ")");
      case WaitReason.SharedGpusFull s -> asked(s.wanted(), s.need())
          + (s.blocks().isEmpty() ? "" : ": " + shown(s.blocks().stream().map(WaitText::block).toList()));
      case WaitReason.Gathering g -> text(g.gpus()) + "; GPUs gather for it (waiting over " + Durations.format(g.after())
          + "): younger jobs wait";
      case WaitReason.GatheringFor g -> "GPUs gather for job " + g.job() + " (needs " + g.wanted() + " GPUs, waiting over "
          + Durations.format(g.after()) + ")" + keptFree(g.keptFree()) + ": younger jobs wait";
      case WaitReason.FailFastCheck f -> "group " + f.group() + " has " + f.open() + " job" + (f.open() == 1 ? "" : "s")
          + " starting or ending; more start once they are counted (fail-fast)";
      case WaitReason.BookedGpu b -> "GPU " + b.gpu() + " is " + bookedBy(b);
      case WaitReason.Booked b -> text(b.behind()) + "; GPU " + b.gpuIndex() + " is free but " + bookedBy(b.booking());
      case WaitReason.InTurn t -> text(t.reason()) + t.gpus().stream().map(g -> "; GPU " + (g.index() == null ? g.uuid()
          : g.index()) + " is free and waits " + Durations.format(Duration.ofSeconds(g.secondsLeft()))
          + " more for another user's turn").collect(Collectors.joining());
      case WaitReason.UserLimit u -> "user limit: " + u.user() + " holds " + u.held() + " GPUs and this machine allows "
          + u.allowed() + " per user (max_gpus_per_user_always); it starts when one of " + u.user() + "'s jobs ends";
      case WaitReason.FairShare f -> fairShare(f);
      case WaitReason.StartFailed s -> "failed to start " + s.failures() + " times in a row (last: " + s.last()
          + "); tries again in " + Durations.format(s.left());
      case WaitReason.ToSlurm t -> "about to be sent to the Slurm cluster";
      case WaitReason.SlurmQueued s ->
          "queued on the Slurm cluster as job " + s.clusterJob() + " ('squeue -j " + s.clusterJob() + "' says why)";
    };
  }

  /** What keeps a GPU that is not FREE from a job: "job 4", "outside process", "drained", "UNKNOWN". */
  public static String holder(GpuHolder g) {
    return switch (g.state()) {
      case RESERVED, RUNNING -> "job " + g.job();
      case SHARED -> g.jobs().isEmpty() ? "shared by " + others(g) : "shared by job" + (g.jobs().size() == 1 ? " " : "s ")
          + g.jobs().stream().map(String::valueOf).collect(Collectors.joining(", "))
          + (g.others().isEmpty() ? "" : " and " + others(g));
      case EXTERNAL -> g.heldBy() != null ? g.heldBy() : "outside process";
      case DRAINED -> "drained";
      default -> "UNKNOWN";
    };
  }

  /** Why a shared job may not join one GPU: "GPU 0 has 12.0 GiB left". */
  public static String block(GpuBlock b) {
    return switch (b) {
      case GpuBlock.Unfit u -> "GPU " + u.gpu() + " does not fit";
      case GpuBlock.Taken t -> "GPU " + t.gpu() + ": " + (t.detail() != null ? t.detail() : holder(t.holder()));
      case GpuBlock.OverShare o -> "GPU " + o.gpu() + ": job " + o.job() + " uses " + MemoryText.words(o.usedMiB())
          + " of its " + MemoryText.words(o.declaredMiB()) + ", no more jobs go there";
      case GpuBlock.AtCap c -> "GPU " + c.gpu() + " holds " + c.count() + " shared job" + (c.count() == 1 ? "" : "s")
          + " (--per-gpu " + c.cap() + ")";
      case GpuBlock.NoRoom n -> "GPU " + n.gpu() + " has " + MemoryText.words(Math.max(0, n.leftMiB())) + " left";
    };
  }

  /** How a start time reads from {@code now}: "in 25m", "in 3h10m". */
  static String in(Instant begin, Instant now) {
    long s = Math.max(0, Duration.between(now, begin).toSeconds());
    if (s < 60) return "in " + s + "s";
    if (s < 3600) return "in " + (s + 59) / 60 + "m";
    long h = s / 3600, m = (s % 3600) / 60;
    if (h < 48) return "in " + h + "h" + (m == 0 ? "" : m + "m");
    return "in " + h / 24 + "d";
  }

  private static String gpus(int n) {
    return n + " GPU" + (n == 1 ? "" : "s");
  }

  /** What a job with a GPU need asks: "needs 1 GPU with ≥ 37.3 GiB", or a shared job's "needs 18.6 GiB on a shared GPU". */
  private static String asked(int n, GpuNeed need) {
    if (!need.share()) return "needs " + gpus(n) + " " + need.text();
    String what = need.vramMiB() > 0 ? MemoryText.words(need.vramMiB()) : "1/" + need.perGpu() + " of a GPU";
    return "needs " + what + (n == 1 ? " on a shared GPU" : " on each of " + n + " shared GPUs")
        + (need.types().isEmpty() ? "" : " of type " + String.join(" or ", need.types()));
  }

  /** "GPU 2 fits", "GPUs 2,3 fit". */
  private static String fitting(List<Integer> fit) {
    return (fit.size() == 1 ? "GPU " : "GPUs ") + fit.stream().map(String::valueOf).collect(Collectors.joining(","))
        + (fit.size() == 1 ? " fits" : " fit");
  }

  /** "GPU 0: job 4; GPU 2: outside process" between {@code open} and {@code close}; empty for none. */
  private static String holders(List<GpuHolder> busy, String open, String close) {
    if (busy.isEmpty()) return "";
    return open + shown(busy.stream().map(g -> "GPU " + g.index() + ": " + holder(g)).toList()) + close;
  }

  /** The first few of {@code parts}, "; " between, and "; +N more" for the rest. */
  private static String shown(List<String> parts) {
    int shown = Math.min(SHOWN, parts.size());
    return String.join("; ", parts.subList(0, shown)) + (parts.size() > shown ? "; +" + (parts.size() - shown) + " more" : "");
  }

  private static String others(GpuHolder g) {
    return g.others().isEmpty() ? null : String.join(", ", g.others());
  }

  /** "; GPUs 1,3 are kept free for it": the free GPUs a gathering leaves idle; empty when none. */
  private static String keptFree(List<Integer> free) {
    if (free.isEmpty()) return "";
    String which = free.stream().map(String::valueOf).collect(Collectors.joining(","));
    return free.size() == 1 ? "; GPU " + which + " is kept free for it" : "; GPUs " + which + " are kept free for it";
  }

  /** "booked by bob from Mon 14:00 to Mon 17:00; only bob's jobs start on it until then". */
  private static String bookedBy(WaitReason.BookedGpu b) {
    String by = "booked by " + b.user() + " " + DayTime.window(b.start(), b.end(), b.now(), b.zone());
    if (b.inWindow()) return by + "; only " + b.user() + "'s jobs start on it until then";
    return by + "; from " + Durations.format(b.notice()) + " before, a job starts on it only with a --time that ends by "
        + DayTime.of(b.start(), b.now(), b.zone()) + (b.noTime() ? " (this job has no --time)" : "");
  }

  /** "fair share: bob waits for 2 GPUs; alice holds 4 of 8 (the fair share is 2), so ...". */
  private static String fairShare(WaitReason.FairShare f) {
    StringBuilder who = new StringBuilder();
    for (Wanting u : f.waiting())
      who.append(who.isEmpty() ? u.user() + " waits for " : ", " + u.user() + " for ").append(gpus(u.gpus()));
    List<String> names = new ArrayList<>();
    f.waiting().forEach(u -> names.add(u.user()));
    return "fair share: " + who + "; " + f.user() + " holds " + f.held() + " of " + f.sharedGpus() + " (the fair share is "
        + f.share() + "), so each GPU that frees up goes to " + String.join(" or ", names) + " first for "
        + Durations.format(f.turn()) + ", then to whoever takes it";
  }
}

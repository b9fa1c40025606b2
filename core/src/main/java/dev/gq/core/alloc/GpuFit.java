package dev.gq.core.alloc;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.WaitReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which GPUs a job's {@link GpuNeed} allows, told in the user's words: the refusal of a submit that no
 * set of this machine's GPUs could ever hold, and the wait reason of a job whose fitting GPUs are
 * busy. The rule itself is the need's: a GPU fits when its total memory is at least the need's and
 * its name matches one of its types. Only fitting GPUs are placed (the {@link Allocator} asks here);
 * a job is refused only when the GPUs of the last good reading prove it can never start, so a device
 * that could not be read refuses nothing. Pure.
 */
public final class GpuFit {
  private GpuFit() {}

  /** Whether {@code g} may hold a job of {@code spec} (any GPU when it has no need). */
  public static boolean fits(JobSpec spec, GpuStatus g) {
    GpuNeed need = spec.gpuNeed();
    return need == null || need.fits(g.name(), g.totalBytes());
  }

  /** Why {@code spec} can never start on {@code devices} (the last good reading), or null. */
  public static String refusal(JobSpec spec, List<DeviceReading> devices) {
    GpuNeed need = spec.gpuNeed();
    if (need == null || spec.onCluster() || devices.isEmpty()) return null;
    if (devices.stream().anyMatch(d -> d.error() != null)) return null; // an unread device may be the one that fits
    int n = spec.gpus();
    List<DeviceReading> typed = devices.stream().filter(d -> need.ofType(d.name())).toList();
    List<DeviceReading> fitting = typed.stream().filter(d -> need.hasMemory(d.totalBytes())).toList();
    if (fitting.size() >= n) return null;
    String asked = asked(n, need);
    if (typed.isEmpty())
      return asked + ": no GPU here is " + String.join(" or ", need.types()) + " (here: " + names(devices)
          + "); name one of those, or leave out --gpu-type";
    if (fitting.isEmpty()) {
      DeviceReading big = typed.stream().max(Comparator.comparingLong(DeviceReading::totalBytes)).orElseThrow();
      long mib = big.totalBytes() >> 20;
      return asked + ": the largest " + (need.types().isEmpty() ? "" : String.join(" or ", need.types()) + " ") + "GPU here has "
          + MemoryText.words(mib) + " (GPU " + big.index() + ", " + big.name() + "); ask for at most --vram "
          + MemoryText.atMostOption(mib);
    }
    return asked + ": only " + fitting.size() + " GPU" + (fitting.size() == 1 ? "" : "s") + " here fit"
        + (fitting.size() == 1 ? "s" : "") + " (GPU" + (fitting.size() == 1 ? " " : "s ") + indices(fitting)
        + "); ask for at most -g " + fitting.size();
  }

  /**
   * Why a job of {@code n} GPUs needing {@code need} waits: "needs 1 GPU with ≥ 37.3 GiB: GPUs 2,3 fit,
   * both busy (GPU 2: job 4; GPU 3: job 5)". {@code freeFitting} is how many fitting GPUs are free.
   */
  static WaitReason waiting(int n, GpuNeed need, int freeFitting, List<GpuStatus> gpus) {
    List<GpuStatus> fit = gpus.stream().filter(g -> need.fits(g.name(), g.totalBytes()))
        .sorted(Comparator.comparingInt(GpuStatus::index)).toList();
    String asked = "needs " + n + " GPU" + (n == 1 ? "" : "s") + " " + need.text();
    if (fit.isEmpty()) return new WaitReason("no GPU fits", asked + ": no GPU here fits; see 'gq gpu'");
    String which = (fit.size() == 1 ? "GPU " : "GPUs ") + fit.stream().map(g -> String.valueOf(g.index()))
        .collect(Collectors.joining(",")) + (fit.size() == 1 ? " fits" : " fit");
    if (fit.size() < n) return new WaitReason("too few fit", asked + ": only " + which + "; see 'gq gpu'");
    String free = freeFitting == 0 ? (fit.size() == 1 ? "busy" : fit.size() == 2 ? "both busy" : "all busy")
        : freeFitting + " free";
    List<String> why = new ArrayList<>();
    for (GpuStatus g : fit) if (g.state() != GpuState.FREE) why.add("GPU " + g.index() + ": " + GpuHolders.holder(g));
    String tail = why.isEmpty() ? "" : " (" + String.join("; ", why.subList(0, Math.min(4, why.size())))
        + (why.size() > 4 ? "; +" + (why.size() - 4) + " more" : "") + ")";
    return new WaitReason("fitting GPUs busy", asked + ": " + which + ", " + free + tail);
  }

  private static String asked(int n, GpuNeed need) {
    String s = n == 1 ? "" : "-g " + n + " ";
    if (!need.types().isEmpty()) s += "--gpu-type " + String.join(",", need.types()) + " ";
    if (need.vramMiB() > 0) s += "--vram " + MemoryText.words(need.vramMiB());
    return s.strip();
  }

  private static String names(List<DeviceReading> devices) {
    return devices.stream().map(DeviceReading::name).distinct().collect(Collectors.joining(", "));
  }

  private static String indices(List<DeviceReading> devices) {
    return devices.stream().map(d -> String.valueOf(d.index())).collect(Collectors.joining(","));
  }
}

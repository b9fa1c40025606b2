package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Places waiting jobs on FREE GPUs: oldest first, first-fit backfill (a younger job that fits goes
 * ahead of an older one that does not), lowest indices, all or nothing. CPU-only jobs are placed
 * at once. Pure: the Scheduler persists the placements as reservations.
 */
public final class Allocator {
  private Allocator() {}

  /**
   * @param waiting WAITING jobs, oldest first
   * @param gpus the classified GPUs; null when no reading has been taken yet
   * @param blocked job id → reason it may not start now (paused queue, held group); not placed
   */
  public static Plan plan(List<Job> waiting, List<GpuStatus> gpus, Map<Long, String> blocked) {
    List<GpuStatus> free = new ArrayList<>();
    if (gpus != null) {
      // A UUID listed twice in one reading is ambiguous: place it on neither, never on both.
      Map<String, Long> seen = gpus.stream().collect(Collectors.groupingBy(GpuStatus::uuid, Collectors.counting()));
      gpus.stream().filter(g -> g.state() == GpuState.FREE && seen.get(g.uuid()) == 1)
          .sorted(Comparator.comparingInt(GpuStatus::index)).forEach(free::add);
    }
    List<Plan.Placement> placed = new ArrayList<>();
    Map<Long, String> reasons = new HashMap<>();
    for (Job j : waiting) {
      String block = blocked.get(j.id());
      int n = j.spec().gpus();
      if (block != null) reasons.put(j.id(), block);
      else if (n == 0) placed.add(new Plan.Placement(j.id(), List.of()));
      else if (gpus == null) reasons.put(j.id(), "waiting for the first GPU reading");
      else if (n <= free.size()) {
        List<GpuSlot> slots = free.subList(0, n).stream().map(g -> new GpuSlot(g.uuid(), g.index())).toList();
        free.subList(0, n).clear();
        placed.add(new Plan.Placement(j.id(), slots));
      } else reasons.put(j.id(), busy(n, free.size(), gpus));
    }
    return new Plan(placed, reasons);
  }

  /** "needs 2 GPUs, 1 free (GPU 0: job 4; GPU 2: outside process)". */
  static String busy(int n, int free, List<GpuStatus> gpus) {
    List<String> why = new ArrayList<>();
    for (GpuStatus g : gpus) {
      if (g.state() == GpuState.FREE) continue;
      String w = switch (g.state()) {
        case RESERVED, RUNNING -> "job " + g.ownerJobId();
        case EXTERNAL -> g.heldBy() != null ? g.heldBy() : "outside process";
        default -> "UNKNOWN";
      };
      why.add("GPU " + g.index() + ": " + w);
    }
    String base = "needs " + n + " GPU" + (n == 1 ? "" : "s") + ", " + free + " free";
    if (why.isEmpty()) return base;
    int shown = Math.min(why.size(), 4);
    String tail = why.size() > shown ? "; +" + (why.size() - shown) + " more" : "";
    return base + " (" + String.join("; ", why.subList(0, shown)) + tail + ")";
  }
}

package dev.gq.actors.runner;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-wide leases a job takes just before its launch: an exclusive job takes its GPUs'
 * leases alone ({@link GpuLeases#take}); a shared job ({@code --share}, {@code --per-gpu}) takes a
 * share of each ({@link GpuLeases#takeShares}), declaring its memory on each card ({@code --vram}, or
 * (total − headroom) / K of the card for {@code --per-gpu K} alone), with this gq's headroom and its
 * own cap per GPU, all or none. Any gq's exclusive lease, or shares that would not leave room for it,
 * send the job back to the queue ({@link GpuLeases.Taken}), as another gq's lease does for an
 * exclusive job.
 */
final class ShareLeases {
  private ShareLeases() {}

  /**
   * Takes {@code job}'s leases for {@code holder}; {@code totalMiB}: each of its GPUs' total memory,
   * by UUID, from the reading its reservation was made on.
   */
  static GpuLeases.Held take(GpuLeases leases, Job job, LeaseHolder holder, Map<String, Long> totalMiB, long headroomMiB)
      throws GpuLeases.Taken {
    List<String> uuids = job.gpus().stream().map(GpuSlot::uuid).toList();
    if (!job.spec().shares()) return leases.take(uuids, holder);
    GpuNeed need = job.spec().gpuNeed();
    // the GPUs by what the job declares on each (one group unless --per-gpu alone on cards of two sizes)
    Map<Long, List<String>> byMiB = new LinkedHashMap<>();
    for (String u : uuids) {
      Long total = totalMiB.get(u);
      if (total == null) throw new GpuLeases.Taken("GPU " + u + " was not in the reading its reservation was made on");
      byMiB.computeIfAbsent(Math.max(1, need.declaredMiB(total, headroomMiB)), k -> new ArrayList<>()).add(u);
    }
    List<GpuLeases.Held> held = new ArrayList<>();
    try {
      for (var e : byMiB.entrySet())
        held.add(leases.takeShares(e.getValue(), holder, e.getKey(), totalMiB, headroomMiB, need.perGpu()));
    } catch (GpuLeases.Taken | RuntimeException e) {
      held.forEach(GpuLeases.Held::close);
      throw e;
    }
    return held.size() == 1 ? held.get(0) : all(held);
  }

  private static GpuLeases.Held all(List<GpuLeases.Held> held) {
    return new GpuLeases.Held() {
      @Override
      public List<Integer> fds() {
        return held.stream().flatMap(h -> h.fds().stream()).toList();
      }

      @Override
      public void close() {
        held.forEach(GpuLeases.Held::close);
      }
    };
  }
}

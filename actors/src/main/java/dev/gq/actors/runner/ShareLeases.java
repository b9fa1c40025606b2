package dev.gq.actors.runner;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The machine-wide leases of a shared job's GPUs ({@code --share}). The leases hold one job per GPU
 * today, so a shared job takes the lease of each of its GPUs that no job holds, as an exclusive job
 * does, and leaves alone the lease of a GPU that one of this gq's own jobs already holds: the
 * allocator put it there only when that lease was free or held by one of the GPU's shared jobs.
 * Another gq then sees the GPU held while its first shared job lives, and its processes (never its
 * own) after that, so it places nothing there either. When the leases carry shares, {@link #take}
 * becomes a take of a share and this falls away.
 */
final class ShareLeases {
  private ShareLeases() {}

  /** Takes the leases of {@code uuids} that are free for {@code holder}; all or none of those. */
  static GpuLeases.Held take(GpuLeases leases, List<String> uuids, LeaseHolder holder, LeaseHolder.Instance self)
      throws GpuLeases.Taken {
    Map<String, GpuLease> now = leases.read(uuids);
    List<String> free = new ArrayList<>();
    for (String u : uuids) {
      GpuLease l = now.get(u);
      boolean ours = l != null && l.state() == GpuLease.State.HELD && l.holder() != null && l.holder().of(self);
      if (!ours) free.add(u);
    }
    return leases.take(free, holder);
  }
}

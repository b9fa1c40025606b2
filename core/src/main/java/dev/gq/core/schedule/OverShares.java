package dev.gq.core.schedule;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shared jobs a reading shows using more of a GPU than they declared, each told once while it
 * lives ({@link LedgerEvent.JobOverShare}; the ledger keeps who was told). The placement rule itself
 * needs no event: the allocator reads the measured use on every plan. Nothing here stops a job. Pure.
 */
public final class OverShares {
  private OverShares() {}

  public static List<LedgerEvent> told(Ledger l, List<GpuStatus> gpus, long headroomMiB, Instant now) {
    if (gpus == null) return List.of();
    List<LedgerEvent> out = new ArrayList<>();
    Set<Long> seen = new HashSet<>(l.settings().overTold());
    for (GpuStatus g : gpus) {
      for (GpuStatus.Share s : g.shares()) {
        if (!s.over(g.totalMiB(), headroomMiB) || seen.contains(s.jobId())) continue;
        Job j = l.live().get(s.jobId());
        if (j == null || !j.state().holdsGpus()) continue;
        seen.add(s.jobId());
        out.add(new LedgerEvent.JobOverShare(s.jobId(), g.uuid(), g.index(), s.usedMiB(),
            s.declaredMiB(g.totalMiB(), headroomMiB), now));
      }
    }
    return out;
  }
}

package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.util.List;
import java.util.Map;

/**
 * The GPUs the user drained ({@code gq gpu drain}): a drained GPU that would be FREE is DRAINED and
 * gets no new job; one a job still uses keeps its state and says that no job follows. Pure.
 */
public final class Drains {
  private Drains() {}

  /** {@code gpus} with each drained one (UUID → reason) marked. */
  public static List<GpuStatus> mark(List<GpuStatus> gpus, Map<String, String> drained) {
    if (drained.isEmpty() || gpus == null) return gpus;
    return gpus.stream().map(g -> {
      String reason = drained.get(g.uuid());
      if (reason == null) return g;
      String undo = "'gq gpu resume " + g.index() + "' gives it back";
      if (g.state() == GpuState.FREE)
        return new GpuStatus(g.index(), g.uuid(), g.name(), GpuState.DRAINED, null, g.processes(), g.totalBytes(),
            g.usedBytes(), "drained (" + reason + "): no new jobs; " + undo, null);
      String was = g.detail() == null ? "" : g.detail() + "; ";
      return g.with(g.state(), g.ownerJobId(), was + "drained (" + reason + "): no new job after this; " + undo, g.heldBy(),
          g.shares());
    }).toList();
  }
}

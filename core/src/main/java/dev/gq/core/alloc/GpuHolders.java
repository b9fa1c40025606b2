package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuStatus;
import java.util.stream.Collectors;

/** How wait reasons name what holds a GPU: a job, jobs sharing it, another user's jobs, an outside process. */
final class GpuHolders {
  private GpuHolders() {}

  /** What keeps a GPU that is not FREE from a job: "job 4", "outside process", "drained", "UNKNOWN". */
  static String holder(GpuStatus g) {
    return switch (g.state()) {
      case RESERVED, RUNNING -> "job " + g.ownerJobId();
      case SHARED -> g.shares().isEmpty() ? "shared by " + others(g) : "shared by job" + (g.shares().size() == 1 ? " " : "s ")
          + g.shares().stream().map(s -> String.valueOf(s.jobId())).collect(Collectors.joining(", "))
          + (g.others().isEmpty() ? "" : " and " + others(g));
      case EXTERNAL -> g.heldBy() != null ? g.heldBy() : "outside process";
      case DRAINED -> "drained";
      default -> "UNKNOWN";
    };
  }

  /** "bob's job 3, bob's job 4": who else shares {@code g}; null when nobody. */
  static String others(GpuStatus g) {
    if (g.others().isEmpty()) return null;
    return g.others().stream().map(GpuStatus.Other::holder).collect(Collectors.joining(", "));
  }
}

package dev.gq.core.report;

import java.time.Instant;
import java.util.List;

/**
 * What the daemon hands a usage report over one period before its rows ({@link UsageRows}): the
 * first recorded use among them ({@code firstUse}: the earliest submission of a job that may touch
 * the period, or start of a GPU span that overlaps it; null when there is none), and the GPUs it
 * sees now (so an unused GPU still has its row, and a shared job's share of it is known).
 */
public record UsageFacts(Instant firstUse, List<JobSpan.GpuRef> gpus) {
  public UsageFacts {
    gpus = List.copyOf(gpus);
  }

  /**
   * The period a report without a chosen start covers: {@code p}, or from the first recorded use
   * (to the minute) when that is later, so that a report of a box that has been in use for a day is
   * not mostly empty.
   */
  public Period fromFirstUse(Period p) {
    return p.fromFirstUse(firstUse);
  }
}

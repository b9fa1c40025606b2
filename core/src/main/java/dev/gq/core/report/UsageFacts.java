package dev.gq.core.report;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * What the daemon hands a usage report over one period: the jobs that may touch it, the recorded GPU
 * spans that overlap it, and the GPUs it sees now (so an unused GPU still has its row, and a shared
 * job's share of it is known).
 */
public record UsageFacts(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> gpus) {
  public UsageFacts {
    jobs = List.copyOf(jobs);
    spans = List.copyOf(spans);
    gpus = List.copyOf(gpus);
  }

  /**
   * The period a report without a chosen start covers: {@code p}, or from the first recorded use
   * (the earliest submission or GPU span, to the minute) when that is later, so that a report of a
   * box that has been in use for a day is not mostly empty.
   */
  public Period fromFirstUse(Period p) {
    Instant first = null;
    for (JobSpan j : jobs) if (j.submit() != null && (first == null || j.submit().isBefore(first))) first = j.submit();
    for (GpuSpan s : spans) if (first == null || s.start().isBefore(first)) first = s.start();
    if (first == null) return p;
    Instant minute = first.truncatedTo(ChronoUnit.MINUTES);
    return minute.isAfter(p.from()) && minute.isBefore(p.to()) ? new Period(minute, p.to()) : p;
  }
}

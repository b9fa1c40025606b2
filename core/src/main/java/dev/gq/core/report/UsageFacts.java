package dev.gq.core.report;

import java.util.List;

/**
 * What the daemon hands a usage report over one period: the jobs that may touch it, the recorded GPU
 * spans that overlap it, and the GPUs it sees now (so an unused GPU still has its row).
 */
public record UsageFacts(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> gpus) {
  public UsageFacts {
    jobs = List.copyOf(jobs);
    spans = List.copyOf(spans);
    gpus = List.copyOf(gpus);
  }
}

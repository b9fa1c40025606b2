package dev.gq.cli;

import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.Period;
import dev.gq.core.report.Usage;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageReport;
import dev.gq.core.report.UsageRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One reading of a report's rows ({@link GqApi#usage}): each is folded into the figures ({@link Usage})
 * as it comes, and for a plot also kept, since its picture has a bar per job (the jobs of the group
 * asked for, and the spans of outside processes); the daemon charged those to the request before
 * handing them over.
 */
final class ReportRows implements UsageRows {
  /** What a plot draws: the jobs of its group, the spans of outside processes, the GPUs seen now. */
  record Held(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> gpus) {}

  private final Usage usage;
  private final Period period;
  private final String group;
  private final Held held;

  ReportRows(UsageFacts facts, Period period, String group, boolean plot) {
    this.usage = new Usage(facts.gpus(), period, group);
    this.period = period;
    this.group = group;
    this.held = plot ? new Held(new ArrayList<>(), new ArrayList<>(), facts.gpus()) : null;
  }

  @Override
  public void span(GpuSpan s) {
    usage.span(s);
    if (held != null && s.use() == GpuUse.OUTSIDE) held.spans().add(s);
  }

  @Override
  public void job(JobSpan j) {
    usage.job(j);
    if (held != null && (group == null || group.equals(j.group()))) held.jobs().add(j);
  }

  /** The earliest submission or span start among the rows read, whatever their group; null when none. */
  Instant firstUse() {
    return usage.firstUse();
  }

  /** The period the rows are folded over. */
  Period period() {
    return period;
  }

  UsageReport report() {
    return usage.report();
  }

  /** What the plot draws; null when none was asked for. */
  Held held() {
    return held;
  }
}

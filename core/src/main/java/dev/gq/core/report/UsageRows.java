package dev.gq.core.report;

/**
 * Takes a usage report's rows as the daemon reads them, one at a time, so that no list of them is
 * held: first each GPU span that overlaps the period, in order of start, then each job that may
 * touch it (in no particular order). {@link Usage} folds them into the report's figures.
 */
public interface UsageRows {
  void span(GpuSpan s);

  void job(JobSpan j);
}

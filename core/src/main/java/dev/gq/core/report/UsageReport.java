package dev.gq.core.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the box did over {@code period}: one row per GPU (by index), one per group (by name, the jobs
 * without a group last as "-"), and the total. {@code group} is the one group asked for (null: all).
 * {@code gpuTimeKnownFrom} is when the daemon's record of what each GPU did (outside processes, idle)
 * begins within the period; null when it recorded nothing of it, and then those figures are null.
 * {@code gpuTimeKnown} is how much of the period that record covers (zero when none): less than the
 * period when the daemon was stopped for part of it. {@code sharedJobs} is how many of the jobs
 * counted were shared ({@code --share}): each counts its share of a card, not the whole card.
 */
public record UsageReport(Period period, String group, Instant gpuTimeKnownFrom, Duration gpuTimeKnown, List<UsageRow> gpus,
    List<UsageRow> groups, UsageRow total, int sharedJobs) {
  public UsageReport {
    gpus = List.copyOf(gpus);
    groups = List.copyOf(groups);
  }
}

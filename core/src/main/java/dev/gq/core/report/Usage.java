package dev.gq.core.report;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Computes a {@link UsageReport} by folding the rows the daemon reads, one at a time ({@link UsageRows}:
 * the GPU spans in order of start, then the jobs), into running figures, so that a report holds one
 * tally per GPU and per group, not its jobs: every interval clipped to the period. A job's GPU time
 * is from the moment it was given its GPUs to its end (or the period's end while it runs), once per
 * GPU it held, a shared job's counted as its share of each card ({@link JobSpan#shareOf}), so that a
 * card's hours never exceed the time that passed; a job counts as ended in the period by the state it
 * ended in, and as started when it was given its GPUs in the period, its wait being submission to
 * start (the waits are the one figure kept per job: {@link RowTally}). Outside and idle time come
 * from the GPU spans only: before the first span the daemon recorded, they are unknown, not zero.
 * Pure; not thread-safe.
 */
public final class Usage implements UsageRows {
  /** The group name rows show for jobs without a group. */
  public static final String NO_GROUP = "-";

  private final Period p;
  private final String group;
  private final Map<String, Integer> knownIndex = new HashMap<>();
  private final Map<String, Integer> spanIndex = new HashMap<>();
  private final Map<String, Integer> jobIndex = new HashMap<>();
  private final Map<String, Long> totals = new HashMap<>();
  private final Map<String, RowTally> byGpu = new HashMap<>();
  private final Map<String, RowTally> byGroup = new TreeMap<>();
  private final RowTally total = new RowTally();
  private final Map<String, Duration[]> gpuTime = new HashMap<>();
  private int shared;
  private Instant known;
  private Instant firstUse;
  // the union of the spans' clipped times: the length of its closed parts, and the part still open
  private Duration coveredBefore = Duration.ZERO;
  private Instant coverFrom;
  private Instant coverTo;

  /** A fold over {@code p} of the jobs of {@code group} (null: all), the daemon seeing {@code knownGpus} now. */
  public Usage(List<JobSpan.GpuRef> knownGpus, Period p, String group) {
    this.p = p;
    this.group = group;
    for (JobSpan.GpuRef g : knownGpus) {
      knownIndex.put(g.uuid(), g.index());
      if (g.totalMiB() > 0) totals.put(g.uuid(), g.totalMiB());
    }
  }

  /** The report over {@code jobs} and {@code spans} (in any order: taken in order of start) at once. */
  public static UsageReport of(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> knownGpus, Period p,
      String group) {
    Usage u = new Usage(knownGpus, p, group);
    spans.stream().sorted(Comparator.comparing(GpuSpan::start)).forEach(u::span);
    jobs.forEach(u::job);
    return u.report();
  }

  /** Takes one GPU span; spans come in order of start, so that the time they cover is one running union. */
  @Override
  public void span(GpuSpan s) {
    spanIndex.putIfAbsent(s.uuid(), s.index());
    firstUse = earlier(firstUse, s.start());
    Instant a = s.start().isAfter(p.from()) ? s.start() : p.from();
    Instant b = s.end().isBefore(p.to()) ? s.end() : p.to();
    if (!b.isAfter(a)) return;
    cover(a, b);
    Duration d = Duration.between(a, b);
    if (known == null || a.isBefore(known)) known = a;
    Duration[] t = gpuTime.computeIfAbsent(s.uuid(), k -> new Duration[] {Duration.ZERO, Duration.ZERO});
    if (s.use() == GpuUse.OUTSIDE) t[0] = t[0].plus(d);
    if (s.use() == GpuUse.IDLE) t[1] = t[1].plus(d);
  }

  private void cover(Instant a, Instant b) {
    if (coverFrom != null && a.isBefore(coverFrom))
      throw new IllegalArgumentException("GPU spans come in order of start: " + a + " came after " + coverFrom);
    if (coverTo != null && !a.isAfter(coverTo)) {
      if (b.isAfter(coverTo)) coverTo = b;
      return;
    }
    if (coverTo != null) coveredBefore = coveredBefore.plus(Duration.between(coverFrom, coverTo));
    coverFrom = a;
    coverTo = b;
  }

  /** Takes one job (its submission counts towards {@link #firstUse} whatever its group). */
  @Override
  public void job(JobSpan j) {
    if (j.submit() != null) firstUse = earlier(firstUse, j.submit());
    if (group != null && !group.equals(j.group())) return;
    Duration held = p.overlap(j.start(), j.end());
    if (j.share() != null && !held.isZero()) shared++;
    Duration all = Duration.ZERO;
    for (JobSpan.GpuRef g : j.gpus()) {
      jobIndex.putIfAbsent(g.uuid(), g.index());
      Duration part = scaled(held, j.shareOf(g.uuid(), totals));
      all = all.plus(part);
      byGpu.computeIfAbsent(g.uuid(), k -> new RowTally()).add(j, part, p);
    }
    byGroup.computeIfAbsent(j.group() == null ? NO_GROUP : j.group(), k -> new RowTally()).add(j, all, p);
    total.add(j, all, p);
  }

  /** The earliest submission of any job or start of any span taken so far; null when none had one. */
  public Instant firstUse() {
    return firstUse;
  }

  /** The report of everything taken so far. */
  public UsageReport report() {
    // a GPU's index: as the daemon sees it now, else from its first span, else from a job that held it
    Map<String, Integer> index = new HashMap<>(knownIndex);
    spanIndex.forEach(index::putIfAbsent);
    jobIndex.forEach(index::putIfAbsent);
    Map<String, Integer> ordered = new LinkedHashMap<>();
    index.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    List<UsageRow> gpuRows = new ArrayList<>();
    for (var e : ordered.entrySet()) {
      Duration[] t = known == null ? null : gpuTime.getOrDefault(e.getKey(), new Duration[] {Duration.ZERO, Duration.ZERO});
      RowTally tally = byGpu.getOrDefault(e.getKey(), new RowTally());
      gpuRows.add(tally.row(e.getKey(), e.getValue(), t == null ? null : Period.hours(t[0]),
          t == null ? null : Period.hours(t[1])));
    }
    List<UsageRow> groupRows = new ArrayList<>();
    byGroup.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().equals(NO_GROUP)))
        .forEach(e -> groupRows.add(e.getValue().row(e.getKey(), null, null, null)));
    Double outside = known == null ? null : gpuRows.stream().mapToDouble(UsageRow::outsideHours).sum();
    Double idle = known == null ? null : gpuRows.stream().mapToDouble(UsageRow::idleHours).sum();
    Duration covered = coverTo == null ? coveredBefore : coveredBefore.plus(Duration.between(coverFrom, coverTo));
    return new UsageReport(p, group, known, covered, gpuRows, groupRows, total.row("all", null, outside, idle), shared);
  }

  private static Instant earlier(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  private static Duration scaled(Duration d, double share) {
    return share >= 1 ? d : Duration.ofMillis(Math.round(d.toMillis() * share));
  }

  /** The {@code q} quantile (0 < q <= 1) of {@code sorted} by nearest rank; null when empty. */
  public static Duration quantile(List<Duration> sorted, double q) {
    if (sorted.isEmpty()) return null;
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.min(sorted.size(), Math.max(1, rank)) - 1);
  }
}

package dev.gq.core.report;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The list-based computation of a {@link UsageReport} as {@code Usage.of} did it before it became a
 * fold over rows read one at a time: kept here, unchanged but for its name, as the reference the
 * fold is compared with ({@link UsageFoldTest}). Computes a {@link UsageReport}: every interval clipped to the period. A job's GPU time is from the
 * moment it was given its GPUs to its end (or the period's end while it runs), once per GPU it held,
 * a shared job's counted as its share of each card ({@link JobSpan#shareOf}), so that a card's
 * hours never exceed the time that passed;
 * a job counts as ended in the period by the state it ended in, and as started when it was given its
 * GPUs in the period, its wait being submission to start. Outside and idle time come from the GPU
 * spans only: before the first span the daemon recorded, they are unknown, not zero. Pure.
 */
final class UsageReference {
  private static final String NO_GROUP = Usage.NO_GROUP;

  private UsageReference() {}

  /** The period a report without a chosen start covered, as {@code UsageFacts.fromFirstUse} computed it from the lists. */
  static Period fromFirstUse(List<JobSpan> jobs, List<GpuSpan> spans, Period p) {
    Instant first = null;
    for (JobSpan j : jobs) if (j.submit() != null && (first == null || j.submit().isBefore(first))) first = j.submit();
    for (GpuSpan s : spans) if (first == null || s.start().isBefore(first)) first = s.start();
    if (first == null) return p;
    Instant minute = first.truncatedTo(ChronoUnit.MINUTES);
    return minute.isAfter(p.from()) && minute.isBefore(p.to()) ? new Period(minute, p.to()) : p;
  }

  static UsageReport of(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> knownGpus, Period p,
      String group) {
    Map<String, Tally> byGpu = new HashMap<>();
    Map<String, Integer> index = new HashMap<>();
    Map<String, Long> totals = new HashMap<>();
    for (JobSpan.GpuRef g : knownGpus) {
      index.put(g.uuid(), g.index());
      if (g.totalMiB() > 0) totals.put(g.uuid(), g.totalMiB());
    }
    for (GpuSpan s : spans) index.putIfAbsent(s.uuid(), s.index());
    Map<String, Tally> byGroup = new TreeMap<>();
    Tally total = new Tally();
    int shared = 0;
    for (JobSpan j : jobs) {
      if (group != null && !group.equals(j.group())) continue;
      if (j.share() != null && !p.overlap(j.start(), j.end()).isZero()) shared++;
      Duration held = p.overlap(j.start(), j.end());
      Duration all = Duration.ZERO;
      for (JobSpan.GpuRef g : j.gpus()) {
        index.putIfAbsent(g.uuid(), g.index());
        Duration part = scaled(held, j.shareOf(g.uuid(), totals));
        all = all.plus(part);
        byGpu.computeIfAbsent(g.uuid(), k -> new Tally()).add(j, part, p);
      }
      byGroup.computeIfAbsent(j.group() == null ? NO_GROUP : j.group(), k -> new Tally()).add(j, all, p);
      total.add(j, all, p);
    }
    Instant known = null;
    Map<String, Duration[]> gpuTime = new HashMap<>();
    for (GpuSpan s : spans) {
      Duration d = p.overlap(s.start(), s.end());
      if (d.isZero()) continue;
      Instant from = s.start().isAfter(p.from()) ? s.start() : p.from();
      if (known == null || from.isBefore(known)) known = from;
      Duration[] t = gpuTime.computeIfAbsent(s.uuid(), k -> new Duration[] {Duration.ZERO, Duration.ZERO});
      if (s.use() == GpuUse.OUTSIDE) t[0] = t[0].plus(d);
      if (s.use() == GpuUse.IDLE) t[1] = t[1].plus(d);
    }
    List<UsageRow> gpuRows = new ArrayList<>();
    Map<String, Integer> ordered = new LinkedHashMap<>();
    index.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    for (var e : ordered.entrySet()) {
      Duration[] t = known == null ? null : gpuTime.getOrDefault(e.getKey(), new Duration[] {Duration.ZERO, Duration.ZERO});
      Tally tally = byGpu.getOrDefault(e.getKey(), new Tally());
      gpuRows.add(tally.row(e.getKey(), e.getValue(), t == null ? null : Period.hours(t[0]),
          t == null ? null : Period.hours(t[1])));
    }
    List<UsageRow> groupRows = new ArrayList<>();
    byGroup.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().equals(NO_GROUP)))
        .forEach(e -> groupRows.add(e.getValue().row(e.getKey(), null, null, null)));
    Double outside = known == null ? null : gpuRows.stream().mapToDouble(UsageRow::outsideHours).sum();
    Double idle = known == null ? null : gpuRows.stream().mapToDouble(UsageRow::idleHours).sum();
    return new UsageReport(p, group, known, covered(spans, p), gpuRows, groupRows, total.row("all", null, outside, idle),
        shared);
  }

  private static Duration scaled(Duration d, double share) {
    return share >= 1 ? d : Duration.ofMillis(Math.round(d.toMillis() * share));
  }

  /** How much of the period some GPU span covers: the spans clipped to it, their union's length. */
  static Duration covered(List<GpuSpan> spans, Period p) {
    List<Instant[]> parts = new ArrayList<>();
    for (GpuSpan s : spans) {
      Instant a = s.start().isAfter(p.from()) ? s.start() : p.from();
      Instant b = s.end().isBefore(p.to()) ? s.end() : p.to();
      if (b.isAfter(a)) parts.add(new Instant[] {a, b});
    }
    parts.sort(Comparator.comparing(x -> x[0]));
    Duration sum = Duration.ZERO;
    Instant from = null;
    Instant to = null;
    for (Instant[] x : parts) {
      if (to != null && !x[0].isAfter(to)) {
        if (x[1].isAfter(to)) to = x[1];
        continue;
      }
      if (to != null) sum = sum.plus(Duration.between(from, to));
      from = x[0];
      to = x[1];
    }
    return to == null ? sum : sum.plus(Duration.between(from, to));
  }

  /** The {@code q} quantile (0 < q <= 1) of {@code sorted} by nearest rank; null when empty. */
  static Duration quantile(List<Duration> sorted, double q) {
    if (sorted.isEmpty()) return null;
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.min(sorted.size(), Math.max(1, rank)) - 1);
  }

  /** The running figures of one row. */
  private static final class Tally {
    private Duration held = Duration.ZERO;
    private final Map<JobState, Integer> ended = new EnumMap<>(JobState.class);
    private final List<Duration> waits = new ArrayList<>();

    void add(JobSpan j, Duration gpuTime, Period p) {
      held = held.plus(gpuTime);
      if (j.state().terminal() && p.contains(j.end())) ended.merge(j.state(), 1, Integer::sum);
      if (p.contains(j.start()) && j.submit() != null) {
        Duration w = Duration.between(j.submit(), j.start());
        waits.add(w.isNegative() ? Duration.ZERO : w);
      }
    }

    UsageRow row(String name, Integer gpuIndex, Double outside, Double idle) {
      Map<JobState, Integer> all = new EnumMap<>(JobState.class);
      for (JobState s : JobState.values()) if (s.terminal()) all.put(s, ended.getOrDefault(s, 0));
      waits.sort(null);
      return new UsageRow(name, gpuIndex, Period.hours(held), all, waits.size(), quantile(waits, 0.5), quantile(waits, 0.9), outside,
          idle);
    }
  }
}

package dev.gq.cli;

import dev.gq.core.job.JobState;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.LaneBands;
import dev.gq.core.report.QueueLength;
import dev.gq.core.report.Usage;
import dev.gq.core.report.UsageReport;
import dev.gq.core.report.UsageRow;
import java.awt.Color;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's picture: on top a timeline with one lane per GPU, a bar per job on each GPU it held
 * (a shared job's as high as its share of the card, stacked beside the others: {@link LaneBands}; coloured by group, the {@link #GROUP_COLOURS} busiest by GPU-hours each their own, or by end
 * state) and the time outside processes held it in grey; below, the queue's length over the same
 * time. Everything is clipped to the report's period.
 */
final class ReportChart {
  static final int GROUP_COLOURS = 10;
  private static final Color[] PALETTE = {new Color(0x4e79a7), new Color(0xf28e2b), new Color(0x59a14f),
      new Color(0xb07aa1), new Color(0xedc948), new Color(0x76b7b2), new Color(0xff9da7), new Color(0x9c755f),
      new Color(0xe15759), new Color(0x86bcb6)};
  private static final Color OTHERS = new Color(0xbab0ac);
  private static final Color OUTSIDE = new Color(0x555555);
  private static final Map<String, Color> STATES = Map.of("DONE", new Color(0x59a14f), "FAILED", new Color(0xe15759),
      "CANCELLED", new Color(0xf28e2b), "TIMEOUT", new Color(0xb07aa1), "INTERRUPTED", new Color(0x9c755f), "PREEMPTED",
      new Color(0x76b7b2), "EXITED", new Color(0x86bcb6), "RUNNING", new Color(0x4e79a7));
  static final String OUTSIDE_KEY = "outside processes";
  private static final String OTHER_GROUPS = "other groups";
  private static final LaneBands.Band WHOLE = new LaneBands.Band(0, 1);

  private ReportChart() {}

  static int height(int gpus) {
    return 260 + 34 * Math.max(1, Math.min(gpus, 32));
  }

  static JFreeChart of(UsageReport r, ReportRows.Held facts, List<QueueLength.Point> queue, boolean byState) {
    DateAxis time = new DateAxis("time (UTC)");
    time.setTimeZone(TimeZone.getTimeZone("UTC"));
    time.setRange(r.period().from().toEpochMilli(), r.period().to().toEpochMilli());
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
    plot.setGap(12);
    plot.add(timeline(r, facts, byState), 3);
    plot.add(queue(r, queue), 1);
    String title = "gq report" + (r.group() == null ? "" : ", group " + r.group()) + ": " + minute(r.period().from()) + " to "
        + minute(r.period().to()) + " UTC";
    JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  private static String minute(Instant t) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(t);
  }

  private static XYPlot timeline(UsageReport r, ReportRows.Held facts, boolean byState) {
    Map<String, Integer> lane = new HashMap<>();
    String[] names = new String[Math.max(1, r.gpus().size())];
    names[0] = "no GPU";
    for (UsageRow g : r.gpus()) {
      lane.put(g.name(), lane.size());
      names[lane.size() - 1] = "GPU " + g.gpuIndex();
    }
    Map<String, String> keyOf = byState ? Map.of() : groupKeys(r);
    Map<String, XYIntervalSeries> series = new LinkedHashMap<>();
    Instant from = r.period().from();
    Instant to = r.period().to();
    jobBars(series, r, facts, lane, keyOf, byState);
    XYIntervalSeries outside = new XYIntervalSeries(OUTSIDE_KEY);
    for (GpuSpan s : facts.spans()) {
      Integer y = lane.get(s.uuid());
      if (s.use() == GpuUse.OUTSIDE && y != null) bar(outside, s.start(), s.end(), y, WHOLE, from, to);
    }
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    series.values().stream().sorted(Comparator.comparing(s -> order(s.getKey().toString(), keyOf, byState)))
        .forEach(data::addSeries);
    data.addSeries(outside);
    XYBarRenderer bars = new XYBarRenderer();
    bars.setUseYInterval(true);
    bars.setBarPainter(new StandardXYBarPainter());
    bars.setShadowVisible(false);
    bars.setDrawBarOutline(false);
    for (int i = 0; i < data.getSeriesCount(); i++) bars.setSeriesPaint(i, colour(data.getSeriesKey(i).toString(), keyOf, byState));
    SymbolAxis gpus = new SymbolAxis("", names);
    gpus.setInverted(true);
    gpus.setRange(-0.5, names.length - 0.5);
    gpus.setGridBandsVisible(false);
    XYPlot p = new XYPlot(data, null, gpus, bars);
    p.setBackgroundPaint(Color.WHITE);
    p.setDomainGridlinePaint(Color.LIGHT_GRAY);
    return p;
  }

  /** A bar per job on each GPU it held, in its key's series, a shared job's across its share of the lane. */
  private static void jobBars(Map<String, XYIntervalSeries> series, UsageReport r, ReportRows.Held facts, Map<String, Integer> lane,
      Map<String, String> keyOf, boolean byState) {
    Instant from = r.period().from();
    Instant to = r.period().to();
    Map<String, Long> totals = new HashMap<>();
    for (JobSpan.GpuRef g : facts.gpus()) totals.put(g.uuid(), g.totalMiB());
    Map<String, List<LaneBands.Bar>> onGpu = new HashMap<>();
    Map<Long, String> keys = new HashMap<>();
    for (JobSpan j : facts.jobs()) {
      if (j.start() == null || j.gpus().isEmpty() || (r.group() != null && !r.group().equals(j.group()))) continue;
      Instant end = j.end() == null ? to : j.end();
      if (!end.isAfter(from) || !j.start().isBefore(to)) continue;
      keys.put(j.id(), byState ? (j.state().terminal() ? j.state().name() : "RUNNING")
          : keyOf.getOrDefault(j.group() == null ? Usage.NO_GROUP : j.group(), OTHER_GROUPS));
      for (JobSpan.GpuRef g : j.gpus())
        onGpu.computeIfAbsent(g.uuid(), u -> new ArrayList<>())
            .add(new LaneBands.Bar(j.id(), j.start(), end, j.shareOf(totals.getOrDefault(g.uuid(), 0L))));
    }
    for (var e : onGpu.entrySet()) {
      Integer y = lane.get(e.getKey());
      if (y == null) continue;
      Map<Long, LaneBands.Band> bands = LaneBands.of(e.getValue());
      for (LaneBands.Bar b : e.getValue())
        bar(series.computeIfAbsent(keys.get(b.jobId()), XYIntervalSeries::new), b.start(), b.end(), y, bands.get(b.jobId()), from, to);
    }
  }

  /** A bar across {@code band} of lane {@code y} (the whole lane is 0.76 high), clipped to the period. */
  private static void bar(XYIntervalSeries s, Instant start, Instant end, int y, LaneBands.Band band, Instant from, Instant to) {
    long a = Math.max(start.toEpochMilli(), from.toEpochMilli());
    long b = Math.min(end.toEpochMilli(), to.toEpochMilli());
    if (b > a) s.add(a, a, b, y, y - 0.38 + 0.76 * band.low(), y - 0.38 + 0.76 * band.high());
  }

  /** The groups with a colour of their own: the busiest by GPU-hours, each its name as key. */
  private static Map<String, String> groupKeys(UsageReport r) {
    Map<String, String> keys = new LinkedHashMap<>();
    r.groups().stream().sorted(Comparator.comparingDouble(UsageRow::gpuHours).reversed()).limit(GROUP_COLOURS)
        .forEach(g -> keys.put(g.name(), g.name()));
    return keys;
  }

  private static String order(String key, Map<String, String> keyOf, boolean byState) {
    if (byState) return key;
    if (key.equals(OTHER_GROUPS)) return "\uffff";
    return String.format("%03d", List.copyOf(keyOf.keySet()).indexOf(key));
  }

  private static Color colour(String key, Map<String, String> keyOf, boolean byState) {
    if (key.equals(OUTSIDE_KEY)) return OUTSIDE;
    if (byState) return STATES.getOrDefault(key, OTHERS);
    int i = List.copyOf(keyOf.keySet()).indexOf(key);
    return i < 0 ? OTHERS : PALETTE[i % PALETTE.length];
  }

  private static XYPlot queue(UsageReport r, List<QueueLength.Point> points) {
    XYSeries s = new XYSeries("waiting jobs", true, true);
    for (QueueLength.Point pt : points) s.addOrUpdate(pt.at().toEpochMilli(), pt.waiting());
    if (!points.isEmpty()) s.addOrUpdate(r.period().to().toEpochMilli(), points.get(points.size() - 1).waiting());
    NumberAxis y = new NumberAxis("waiting");
    y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    y.setAutoRangeIncludesZero(true);
    XYStepRenderer step = new XYStepRenderer();
    step.setSeriesPaint(0, new Color(0x4e79a7));
    step.setSeriesShapesVisible(0, false);
    XYPlot p = new XYPlot(new XYSeriesCollection(s), null, y, step);
    p.setBackgroundPaint(Color.WHITE);
    p.setRangeGridlinePaint(Color.LIGHT_GRAY);
    return p;
  }
}

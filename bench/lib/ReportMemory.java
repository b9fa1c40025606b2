import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.Period;
import dev.gq.core.report.QueueLength;
import dev.gq.core.report.Usage;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageReport;
import dev.gq.core.report.UsageRows;
import dev.gq.persistence.Database;
import dev.gq.persistence.GpuSpans;
import dev.gq.persistence.UsageReads;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The heap one `gq report` holds over a history of N ended jobs (bench/report-memory.sh): the rows
 * written straight into a fresh history's report columns (every job ran on one of 4 GPUs, in one of
 * 20 groups, all in the last day; a span per GPU use), then, in this JVM, after full collections:
 * the lists the report held before its rows were folded (every job and span of the period), the fold
 * it holds now, and what a plot keeps (its rows, then its chart built). Also the thread's CPU time
 * of each way (reading the rows and computing the figures, the fold's count of the rows first
 * included; the collections excluded), and a check that both give the same report.
 * Usage: java -XX:+UseSerialGC -cp JARS ReportMemory.java JOBS DIR
 */
public class ReportMemory {
  static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Path db = Path.of(args[1]).resolve("gq.db");
    Files.createDirectories(db.getParent());
    Database.prepare(db);
    int spans = fill(db, n);
    Instant from = NOW.minus(Duration.ofDays(1));
    Period p = new Period(from, NOW);
    List<JobSpan.GpuRef> gpus = List.of(new JobSpan.GpuRef("GPU-bench-0", 0, 81920), new JobSpan.GpuRef("GPU-bench-1", 1, 81920),
        new JobSpan.GpuRef("GPU-bench-2", 2, 81920), new JobSpan.GpuRef("GPU-bench-3", 3, 81920));
    for (int warm = 0; warm < 2; warm++) {
      Usage u = new Usage(gpus, p, null);
      GpuSpans.read(db, from, NOW, u::span);
      UsageReads.jobs(db, from, NOW, u::job);
      u.report();
    }

    long base = used();
    long cpu = cpu();
    List<JobSpan> jobs = new ArrayList<>();
    List<GpuSpan> spanList = new ArrayList<>();
    GpuSpans.read(db, from, NOW, spanList::add);
    UsageReads.jobs(db, from, NOW, jobs::add);
    cpu = cpu() - cpu;
    long lists = used() - base;
    long computeCpu = cpu();
    UsageReport old = Usage.of(jobs, spanList, gpus, p, null);
    long listCpu = cpu + cpu() - computeCpu;
    jobs = null;
    spanList = null;

    base = used();
    cpu = cpu();
    // as the daemon does: the rows counted and the first use found first, then read
    UsageReads.Extent counted = UsageReads.extent(db, from, NOW);
    GpuSpans.extent(db, from, NOW);
    Usage fold = new Usage(gpus, p, null);
    GpuSpans.read(db, from, NOW, fold::span);
    UsageReads.jobs(db, from, NOW, fold::job);
    long foldCpu = cpu() - cpu;
    long folded = used() - base;
    computeCpu = cpu();
    UsageReport now = fold.report();
    foldCpu += cpu() - computeCpu;
    fold = null;

    base = used();
    Class<?> rowsClass = Class.forName("dev.gq.cli.ReportRows");
    Constructor<?> make = rowsClass.getDeclaredConstructor(UsageFacts.class, Period.class, String.class, boolean.class);
    make.setAccessible(true);
    UsageRows rows = (UsageRows) make.newInstance(new UsageFacts(null, gpus), p, null, true);
    GpuSpans.read(db, from, NOW, rows::span);
    UsageReads.jobs(db, from, NOW, rows::job);
    long kept = used() - base;
    Method held = rowsClass.getDeclaredMethod("held");
    held.setAccessible(true);
    Object h = held.invoke(rows);
    Method heldJobs = h.getClass().getDeclaredMethod("jobs");
    heldJobs.setAccessible(true);
    @SuppressWarnings("unchecked")
    var queue = QueueLength.over((List<JobSpan>) heldJobs.invoke(h), p);
    Class<?> chartClass = Class.forName("dev.gq.cli.ReportChart");
    Method of = chartClass.getDeclaredMethod("of", UsageReport.class, h.getClass(), List.class, boolean.class);
    of.setAccessible(true);
    System.setProperty("java.awt.headless", "true");
    Object chart = of.invoke(null, now, h, queue, false);
    long charted = used() - base;

    System.out.printf("jobs=%d spans=%d same=%b%n", n, spans, old.equals(now));
    System.out.printf("lists_mib=%.1f fold_kib=%.0f plot_rows_mib=%.1f plot_chart_mib=%.1f per_row_plot_b=%.0f%n",
        lists / 1048576.0, folded / 1024.0, kept / 1048576.0, charted / 1048576.0, (double) charted / (n + spans));
    System.out.printf("lists_cpu_ms=%.0f fold_cpu_ms=%.0f counted=%d%n", listCpu / 1e6, foldCpu / 1e6, counted.rows());
    if (chart.hashCode() == rows.hashCode()) System.out.print("");
  }

  /** Heap in use after full collections. */
  static long used() {
    for (int i = 0; i < 3; i++) System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static long cpu() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  /** Writes n ended jobs and their GPUs' spans; returns the number of spans. */
  static int fill(Path db, int n) throws Exception {
    long day = Duration.ofDays(1).toMillis();
    long t0 = NOW.toEpochMilli() - day;
    long step = day / n;
    long[] free = new long[4];
    int spans = 0;
    try (Connection c = DriverManager.getConnection(Database.url(db))) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO jobs (id, state, group_name, doc, submit_ms, start_ms, end_ms,"
          + " gpu_list) VALUES (?, ?, ?, '{}', ?, ?, ?, ?)");
          PreparedStatement sp = c.prepareStatement("INSERT INTO gpu_spans (uuid, gpu_index, gpu_use, start_ms, end_ms)"
              + " VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 0; i < n; i++) {
          int g = i % 4;
          long submit = t0 + i * step;
          long start = Math.max(submit + (i % 7) * 1000L, free[g]);
          long end = start + 4 * step - 1;
          if (i % 50 == 0 && start > free[g]) {
            // an idle stretch before this job: its GPU's spans change
            span(sp, g, "IDLE", free[g], start);
            span(sp, g, "JOBS", start, start);
            spans += 2;
          }
          free[g] = end;
          ps.setLong(1, i + 1);
          ps.setString(2, i % 10 == 0 ? "FAILED" : "DONE");
          ps.setString(3, "group-" + i % 20);
          ps.setLong(4, submit);
          ps.setLong(5, start);
          ps.setLong(6, end);
          ps.setString(7, g + "=GPU-bench-" + g);
          ps.addBatch();
        }
        ps.executeBatch();
        sp.executeBatch();
      }
      c.commit();
    }
    return spans;
  }

  static void span(PreparedStatement sp, int g, String use, long start, long end) throws Exception {
    sp.setString(1, "GPU-bench-" + g);
    sp.setInt(2, g);
    sp.setString(3, use);
    sp.setLong(4, start);
    sp.setLong(5, Math.max(start + 1, end));
    sp.addBatch();
  }
}

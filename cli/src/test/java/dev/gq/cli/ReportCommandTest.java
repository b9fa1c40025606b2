package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.core.job.JobState;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gq report} from a fake daemon: the table, the JSON and its schema, the plot files and the refusals. */
class ReportCommandTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final JobSpan.GpuRef G0 = new JobSpan.GpuRef("GPU-a", 0);
  private static final JobSpan.GpuRef G1 = new JobSpan.GpuRef("GPU-b", 1);
  @TempDir Path dir;
  Cli cli;

  private static Instant ago(long hours) {
    return NOW.minus(Duration.ofHours(hours));
  }

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.env.put("TZ", "UTC");
    cli.io.stdoutTty = false;
    cli.api.now = NOW;
    cli.api.usage = new FakeApi.UsageData(List.of(
        new JobSpan(1, "sweep", JobState.DONE, ago(10), ago(9), ago(5), List.of(G0)),
        new JobSpan(2, "sweep", JobState.FAILED, ago(10), ago(8), ago(7), List.of(G1)),
        new JobSpan(3, "eval", JobState.CANCELLED, ago(6), null, ago(5), List.of()),
        new JobSpan(4, null, JobState.RUNNING, ago(3), ago(2), null, List.of(G0, G1))),
        List.of(new GpuSpan("GPU-b", 1, GpuUse.OUTSIDE, ago(6), ago(4)), new GpuSpan("GPU-b", 1, GpuUse.IDLE, ago(4), ago(2))),
        List.of(G0, G1));
  }

  @Test
  void theTableShowsEachGpuAndGroupWithTheTotal() {
    Cli.Result r = cli.run("report", "--since", "1d");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        From 2026-11-29 12:00:00 to 2026-11-30 12:00:00 (1d)
        GPU  GPU-HOURS  OUTSIDE  IDLE  DONE  FAILED  CANCELLED  OTHER  STARTED  WAIT-MEDIAN  WAIT-P90
        0    6.00       0.00     0.00  1     0       0          0      2        1h           1h
        1    3.00       2.00     2.00  0     1       0          0      2        1h           2h
        all  9.00       2.00     2.00  1     1       1          0      3        1h           2h

        GROUP  GPU-HOURS  DONE  FAILED  CANCELLED  OTHER  STARTED  WAIT-MEDIAN  WAIT-P90
        eval   0.00       0     0       1          0      0        -            -
        sweep  5.00       1     1       0          0      2        1h           2h
        -      4.00       0     0       0          0      1        1h           1h
        all    9.00       1     1       1          0      3        1h           2h
        """, r.out());
    assertTrue(r.err().contains("outside and idle hours cover 4h of the period's 1d, from 2026-11-30 06:00:00"), r.err());
    assertEquals(1, cli.api.usageCalls.size(), "one request");
    assertArrayEquals(new Instant[] {NOW.minus(Duration.ofDays(1)), NOW}, cli.api.usageCalls.get(0));
  }

  @Test
  void sharedJobsCountTheirShareOfTheCardAndTheTableSaysSo() {
    var big = new JobSpan.GpuRef("GPU-a", 0, 81_920);
    var quarter = new JobSpan.Share(20_480, 0);
    cli.api.usage = new FakeApi.UsageData(List.of(
        new JobSpan(1, "evals", JobState.DONE, ago(10), ago(8), ago(4), List.of(big), quarter),
        new JobSpan(2, "evals", JobState.DONE, ago(10), ago(8), ago(4), List.of(big), quarter)), List.of(), List.of(big));
    Cli.Result r = cli.run("report", "--since", "1d");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\n0    2.00 "), r.out());
    assertTrue(r.out().contains("GPU-HOURS count each of the 2 shared jobs as its share of the card: its declared memory over the"
        + " card's total."), r.out());
    JsonNode n = JsonSchemas.parse(cli.run("report", "--since", "1d", "--json").out());
    assertEquals(2, n.get("shared_jobs").asInt());
  }

  @Test
  void theJsonFollowsItsSchemaAndCarriesTheFigures() {
    Cli.Result r = cli.run("report", "--since", "1d", "--json");
    assertEquals(0, r.code(), r.err());
    JsonOutputs.checkOutput(List.of("report", "--since", "1d", "--json"), 0, r.out());
    JsonNode n = JsonSchemas.parse(r.out());
    assertEquals(9.0, n.get("total").get("gpu_hours").asDouble(), 1e-9);
    assertEquals(1, n.get("total").get("ended").get("CANCELLED").asInt());
    assertEquals(2.0, n.get("gpus").get(1).get("outside_hours").asDouble(), 1e-9);
    assertEquals(3600.0, n.get("total").get("wait_median_seconds").asDouble(), 1e-9);
    assertEquals("2026-11-30T06:00:00Z", n.get("gpu_time_known_from").asText());
    assertEquals(4 * 3600.0, n.get("gpu_time_known_seconds").asDouble(), 1e-9);
  }

  @Test
  void aGroupReportCountsThatGroupAlone() {
    Cli.Result r = cli.run("report", "--since", "1d", "--group", "sweep", "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode n = JsonSchemas.parse(r.out());
    assertEquals("sweep", n.get("group").asText());
    assertEquals(5.0, n.get("total").get("gpu_hours").asDouble(), 1e-9);
    assertEquals(1, n.get("groups").size());
  }

  @Test
  void aPlotIsWrittenAsPngOrSvgBesideTheCallersDirectory() throws Exception {
    Cli.Result r = cli.run("report", "--since", "1d", "--plot", "usage.png");
    assertEquals(0, r.code(), r.err());
    byte[] png = Files.readAllBytes(dir.resolve("usage.png"));
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    assertTrue(r.err().contains("wrote the plot to " + dir.resolve("usage.png")), r.err());
    assertEquals(0, cli.run("report", "--since", "1d", "--plot", "usage.svg", "--colour-by", "state").code());
    String svg = Files.readString(dir.resolve("usage.svg"), StandardCharsets.UTF_8);
    assertTrue(svg.contains("<svg"), svg.substring(0, Math.min(200, svg.length())));
    assertTrue(svg.contains("outside processes"), "the legend names outside processes");
    try (var files = Files.list(dir)) {
      assertEquals(2, files.count(), "no temporary file left");
    }
  }

  @Test
  void aLinkPlantedAtATemporaryNameIsNeverWrittenThrough() throws Exception {
    Path precious = Files.writeString(dir.resolve("precious.txt"), "mine\n");
    List<String> planted = List.of(".usage.png.gq-tmp", ".usage.png.tmp", "usage.png.tmp", ".usage.png.gq-tmp-0");
    for (String name : planted) Files.createSymbolicLink(dir.resolve(name), precious);
    Cli.Result r = cli.run("report", "--since", "1d", "--plot", "usage.png");
    assertEquals(0, r.code(), r.err());
    assertEquals("mine\n", new String(Files.readAllBytes(precious), StandardCharsets.ISO_8859_1), "the file behind the links is untouched");
    byte[] png = Files.readAllBytes(dir.resolve("usage.png"));
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    for (String name : planted) assertTrue(Files.isSymbolicLink(dir.resolve(name)), name + " is left as it was");
    try (var files = Files.list(dir)) {
      assertEquals(planted.size() + 2, files.count(), "no temporary file left");
    }
  }

  @Test
  void aPlotToAnUnknownKindOrAMissingDirectoryIsRefusedInOneLine() {
    Cli.Result kind = cli.run("report", "--plot", "usage.pdf");
    assertEquals(ExitCode.USAGE, kind.code());
    assertTrue(kind.err().startsWith("gq: cannot plot to usage.pdf: give a file ending in .png or .svg\n"), kind.err());
    Cli.Result missing = cli.run("report", "--plot", "no/such/usage.png");
    assertEquals(ExitCode.FAILED, missing.code());
    assertTrue(missing.err().startsWith("gq: cannot write " + dir.resolve("no/such/usage.png") + ": the directory"), missing.err());
    assertEquals(1, missing.err().lines().count());
    assertTrue(cli.api.usageCalls.isEmpty(), "refused before asking the daemon");
  }

  @Test
  void withoutSinceTheReportStartsAtTheFirstRecordedUseWhenThatIsLaterThanAWeekAgo() {
    Cli.Result r = cli.run("report", "--json");
    assertEquals(0, r.code(), r.err());
    assertEquals(NOW.minus(Duration.ofDays(7)), cli.api.usageCalls.get(0)[0], "the week is asked for");
    JsonNode n = JsonSchemas.parse(r.out());
    assertEquals("2026-11-30T02:00:00Z", n.get("from").asText(), "the first job was submitted 10 h ago");
    assertTrue(cli.run("report").out().startsWith("From 2026-11-30 02:00:00 to 2026-11-30 12:00:00 (10h)"));
    assertEquals(NOW.minus(Duration.ofDays(7)).toString(), JsonSchemas.parse(cli.run("report", "--since", "7d", "--json").out())
        .get("from").asText(), "a chosen start is kept");
  }

  @Test
  void aFirstUseCountedFromARowThatCouldNotBeReadDoesNotMoveThePeriod() {
    var u = cli.api.usage;
    cli.api.usage = new FakeApi.UsageData(u.jobs(), u.spans(), u.gpus(), ago(30));
    JsonNode n = JsonSchemas.parse(cli.run("report", "--json").out());
    assertEquals("2026-11-30T02:00:00Z", n.get("from").asText(), "the first job read was submitted 10 h ago");
    assertEquals(9.0, n.get("total").get("gpu_hours").asDouble(), 1e-9);
    assertEquals(2, cli.api.usageCalls.size(), "read again over the period the rows gave");
    cli.api.usage = u;
    cli.api.usageCalls.clear();
    assertEquals(0, cli.run("report", "--json").code());
    assertEquals(1, cli.api.usageCalls.size(), "one reading when the daemon's count agrees");
  }

  @Test
  void onlyAPlotAsksTheDaemonToHoldTheRows() {
    assertEquals(0, cli.run("report", "--since", "1d", "--json").code());
    assertEquals(0, cli.run("report", "--since", "1d").code());
    assertEquals(0, cli.run("report", "--since", "1d", "--plot", "usage.png").code());
    assertEquals(List.of(false, false, true), cli.api.usageHeld);
  }

  @Test
  void sharedJobsAreDrawnAsTheirShareOfTheLane() throws Exception {
    var big = new JobSpan.GpuRef("GPU-a", 0, 81_920);
    var quarter = new JobSpan.Share(20_480, 0);
    cli.api.usage = new FakeApi.UsageData(List.of(
        new JobSpan(1, "evals", JobState.DONE, ago(10), ago(8), ago(4), List.of(big), quarter),
        new JobSpan(2, "evals", JobState.DONE, ago(10), ago(8), ago(4), List.of(big), quarter)), List.of(), List.of(big));
    var report = dev.gq.core.report.Usage.of(cli.api.usage.jobs(), List.of(), cli.api.usage.gpus(),
        new dev.gq.core.report.Period(ago(24), NOW), null);
    var plot = (org.jfree.chart.plot.CombinedDomainXYPlot) ReportChart.of(report, new ReportRows.Held(cli.api.usage.jobs(), List.of(), cli.api.usage.gpus()), List.of(), false).getPlot();
    var bars = (org.jfree.data.xy.XYIntervalSeriesCollection) plot.getSubplots().get(0).getDataset();
    assertEquals(2, bars.getItemCount(0));
    assertEquals(0.76 / 4, bars.getEndYValue(0, 0) - bars.getStartYValue(0, 0), 1e-9, "a quarter of the lane");
    assertEquals(bars.getEndYValue(0, 0), bars.getStartYValue(0, 1), 1e-9, "the second stacked on the first");
  }

  @Test
  void aPeriodThatEndsBeforeItBeginsIsRefused() {
    Cli.Result r = cli.run("report", "--since", "2026-11-30", "--until", "2026-11-29");
    assertEquals(ExitCode.USAGE, r.code());
    assertTrue(r.err().contains("--since must be before --until"), r.err());
    assertFalse(cli.run("report", "--until", "yesterday").err().contains("--since;"));
  }
}

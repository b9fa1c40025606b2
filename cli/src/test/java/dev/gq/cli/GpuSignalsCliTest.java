package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPUs' figures in gq gpu, and the idle and unwell hints in gq ps and gq show. */
class GpuSignalsCliTest {
  private static final long GIB = 1L << 30;
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private static GqApi.GpuReport twoGpus(Map<String, String> unwell) {
    return new GqApi.GpuReport(List.of(
        new GpuStatus(0, "GPU-uuid-0", "H100", GpuState.RUNNING, 7L, List.of(), 80 * GIB, 2 * GIB, null),
        new GpuStatus(1, "GPU-uuid-1", "H100", GpuState.FREE, null, List.of(), 80 * GIB, 0, null)),
        "NVML", false, null, Map.of("GPU-uuid-0", new GpuFigures(37, 12, 61, 210, 700),
            "GPU-uuid-1", new GpuFigures(null, null, 40, null, null)), unwell);
  }

  @Test
  void gpuShowsUtilTempAndPowerWhereTheyFitBlankWhenUnknown() {
    cli.api.gpus = twoGpus(Map.of());
    cli.io.width = 120;
    assertEquals("""
        GPU  UUID        TYPE  STATE    OWNER  PIDS  MEMORY     UTIL  TEMP  POWER     DETAIL
        0    GPU-uuid-0  H100  RUNNING  job 7  -     2.0/80.0G  37%   61C   210/700W  -
        1    GPU-uuid-1  H100  FREE     -      -     0.0/80.0G        40C             -
        """, cli.run("gpu").out());
  }

  @Test
  void onANarrowTerminalTheFiguresGiveWayToTheDetail() {
    cli.api.gpus = twoGpus(Map.of());
    cli.io.width = 80;
    String out = cli.run("gpu").out();
    assertFalse(out.contains("UTIL"), out);
    assertTrue(out.lines().allMatch(l -> l.length() <= 80), out);
  }

  @Test
  void withoutAnyFigureTheColumnsAreLeftOut() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(Map.of()).gpus(), "NVML", false, null);
    cli.io.width = 200;
    assertFalse(cli.run("gpu").out().contains("UTIL"));
  }

  @Test
  void gpuJsonCarriesTheFiguresAndTheProblemOfAnUnwellGpu() {
    cli.api.gpus = twoGpus(Map.of("GPU-uuid-1", "Xid 79: fell off the bus"));
    JsonNode gpus = JsonSchemas.parse(cli.run("gpu", "--json").out());
    assertEquals(37, gpus.get(0).get("util_percent").asInt());
    assertEquals(700, gpus.get(0).get("power_limit_watts").asInt());
    assertTrue(gpus.get(1).get("util_percent").isNull());
    assertEquals("Xid 79: fell off the bus", gpus.get(1).get("unwell").asText());
    assertTrue(gpus.get(0).get("unwell").isNull());
  }

  @Test
  void anIdleJobAndAJobOnAnUnwellGpuAreNotedInPsAndShow() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.DONE));
    cli.api.now = Jobs.T0.plus(Duration.ofMinutes(46));
    cli.api.idle.put(1L, Jobs.T0.plusSeconds(60));
    cli.api.gpus = twoGpus(Map.of("GPU-uuid-0", "Xid 79: fell off the bus"));
    String ps = cli.run("ps").out();
    assertTrue(ps.lines().findFirst().orElseThrow().contains("NOTE"), ps);
    assertTrue(ps.contains("idle 45m, GPU 0 unwell"), ps);
    String show = cli.run("show", "1").out();
    assertTrue(show.contains("Idle:") && show.contains("45m: its GPUs have shown 0% utilisation since"), show);
    assertTrue(show.contains("GPU unwell:  GPU 0: Xid 79: fell off the bus; drained"), show);
    JsonNode json = JsonSchemas.parse(cli.run("show", "1", "--json").out());
    assertEquals(Jobs.T0.plusSeconds(60).toString(), json.get("idle_since").asText());
    assertEquals(0, json.get("unwell_gpus").get(0).get("index").asInt());
    JsonNode ended = JsonSchemas.parse(cli.run("show", "2", "--json").out());
    assertTrue(ended.get("idle_since").isNull());
    assertEquals(0, ended.get("unwell_gpus").size(), "an ended job holds no GPU");
  }

  @Test
  void withoutNotesPsHasNoNoteColumnAndAsksNothingWhenNoJobRuns() {
    cli.api.add(Jobs.job(2, JobState.DONE));
    assertFalse(cli.run("ps", "--all").out().contains("NOTE"));
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.core.job.JobState;
import dev.gq.core.progress.Estimate;
import dev.gq.core.progress.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gq eta}, the Progress line of {@code gq show} and the PROGRESS column of {@code gq ps}, from a fake daemon. */
class EtaCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.env.put("TZ", "UTC");
    cli.io.stdoutTty = false;
    cli.api.now = Jobs.T0.plusSeconds(3601);
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    cli.api.add(Jobs.job(3, JobState.DONE));
    cli.api.add(Jobs.job(4, JobState.RUNNING));
    cli.api.estimates.put(1L, new Estimate(530, 1000, 53.0, 2.5, Duration.ofSeconds(5040), Source.TQDM));
    cli.api.estimates.put(2L, new Estimate(9000, 10000, 90.0, Double.NaN, null, Source.CHECKPOINT));
  }

  @Test
  void etaListsEveryRunningJobWithItsEstimate() {
    Cli.Result r = cli.run("eta");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        JOB  ELAPSED  PROGRESS          RATE   LEFT   FINISH               SOURCE
        1    1:00:00  530/1000 (53%)    2.5/s  1h24m  2025-03-01 12:24:01  tqdm
        2    1:00:00  9000/10000 (90%)  -      -      -                    checkpoint
        4    1:00:00  -                 -      -      -                    unknown
        """, r.out());
    assertEquals(List.of(List.of(1L, 2L, 4L)), cli.api.progressCalls, "one request, running jobs only");
  }

  @Test
  void aSlowRateIsSaidAsTimeEachAndANamedEndedJobOnStderr() {
    cli.api.estimates.put(1L, new Estimate(3, 100, 3.0, 1.0 / 40, Duration.ofSeconds(3880), Source.LOG_PATTERN));
    Cli.Result r = cli.run("eta", "1", "3");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("40s each"), r.out());
    assertTrue(r.out().contains("log pattern"), r.out());
    assertEquals("gq: job 3 is DONE; only a running job has an ETA\n", r.err());
  }

  @Test
  void aJobThatDoesNotExistFails() {
    Cli.Result r = cli.run("eta", "99");
    assertEquals(1, r.code());
    assertEquals("gq: job 99 does not exist\n", r.err());
  }

  @Test
  void noRunningJobSaysSo() {
    cli.api.jobs.clear();
    Cli.Result r = cli.run("eta");
    assertEquals("No running jobs.\n", r.out());
    assertTrue(cli.api.progressCalls.isEmpty());
  }

  @Test
  void jsonGivesNumbersAndNullsForTheUnknown() {
    JsonNode a = JsonSchemas.parse(cli.run("eta", "--json").out());
    assertEquals(3, a.size());
    assertEquals(530, a.get(0).get("current").asLong());
    assertEquals(1000, a.get(0).get("total").asLong());
    assertEquals(5040, a.get(0).get("remaining_seconds").asLong());
    assertEquals("2025-03-01T12:24:01Z", a.get(0).get("finish").asText());
    assertEquals("tqdm", a.get(0).get("source").asText());
    assertEquals(3600, a.get(0).get("elapsed_seconds").asLong());
    assertTrue(a.get(1).get("rate_per_second").isNull());
    assertTrue(a.get(2).get("source").isNull());
  }

  @Test
  void showHasAProgressLineForARunningJobOnly() {
    String out = cli.run("show", "1").out();
    assertTrue(out.contains("Progress:    530/1000 (53%), 2.5/s, 1h24m left, finishes about 2025-03-01 12:24:01 (tqdm)\n"), out);
    assertTrue(cli.run("show", "4").out().contains("Progress:    unknown\n"));
    assertFalse(cli.run("show", "3").out().contains("Progress:"));
  }

  @Test
  void psShowsProgressWhenARunningJobHasAnEstimate() {
    Cli.Result r = cli.run("ps", "-o", "id,state,progress");
    assertEquals("""
        JOB  STATE    PROGRESS
        4    RUNNING  
        3    DONE     
        2    RUNNING  90%
        1    RUNNING  53% ETA 1h24m
        """, r.out());
    assertTrue(cli.run("ps").out().contains("PROGRESS"));
    assertEquals(List.of(List.of(4L, 2L, 1L)), cli.api.progressCalls.subList(0, 1));
  }

  @Test
  void psLeavesProgressOutWhenNoJobHasAnEstimateAndDoesNotAskForOtherColumns() {
    cli.api.estimates.clear();
    assertFalse(cli.run("ps").out().contains("PROGRESS"));
    cli.api.progressCalls.clear();
    cli.run("ps", "-o", "id,state");
    cli.run("ps", "--json");
    assertTrue(cli.api.progressCalls.isEmpty(), "no estimate asked for when PROGRESS is not shown");
  }
}

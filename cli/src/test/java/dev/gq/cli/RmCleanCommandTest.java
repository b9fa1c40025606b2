package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RmCleanCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    for (long id = 1; id <= 5; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    cli.api.add(Jobs.job(6, JobState.RUNNING));
    cli.api.add(Jobs.job(9, JobState.FAILED));
  }

  @Test
  void rmSendsTheIdsAndSaysWhatWent() {
    Cli.Result r = cli.run("rm", "1", "2-3", "5", "9");
    assertEquals(0, r.code(), r.err());
    assertEquals(List.of(List.of(1L, 2L, 3L, 5L, 9L)), cli.api.removals);
    assertEquals("Removed 5 jobs and their logs: 1-3, 5, 9\n", r.out());
  }

  @Test
  void oneJobIsSaidWithItsLog() {
    assertEquals("Removed 1 job and its log: 9\n", cli.run("rm", "9").out());
  }

  @Test
  void aRangeTakesOnlyTheJobsThatExist() {
    cli.run("rm", "7-10");
    assertEquals(List.of(List.of(9L)), cli.api.removals);
  }

  @Test
  void daemonRefusalIsOneLine() {
    cli.api.refuseWith = new ApiException("job 6 is RUNNING and cannot be deleted; cancel it first");
    Cli.Result r = cli.run("rm", "6");
    assertEquals(1, r.code());
    assertEquals("gq: job 6 is RUNNING and cannot be deleted; cancel it first\n", r.err());
  }

  @Test
  void rmNeedsAJobAndARangeWithNoJobIsRefused() {
    assertEquals(2, cli.run("rm").code());
    assertEquals(2, cli.run("rm", "x").code());
    Cli.Result r = cli.run("rm", "100-200");
    assertEquals("gq: no job exists in 100-200; nothing was deleted\n", r.err());
    assertTrue(cli.api.removals.isEmpty());
  }

  @Test
  void cleanWithYesDeletesWhatEndedBeforeTheCutoff() {
    Instant before = Instant.now();
    Cli.Result r = cli.run("clean", "--older-than", "30d", "--state", "failed", "-y");
    assertEquals(0, r.code(), r.err());
    assertEquals(1, cli.api.cleans.size());
    assertTrue(cli.api.cleans.get(0).endsWith(" [FAILED]"), cli.api.cleans.get(0));
    JobQuery counted = cli.api.queries.get(cli.api.queries.size() - 1);
    assertNotNull(counted.endedBefore());
    assertTrue(!counted.endedBefore().isAfter(before.minusSeconds(30L * 86400 - 5)), counted.endedBefore().toString());
    assertEquals(Set.of(JobState.FAILED), counted.states());
  }

  @Test
  void cleanAsksOnATerminalAndRefusesWithoutOne() {
    cli.io.answers.add("n");
    Cli.Result asked = cli.run("clean");
    assertEquals("Nothing was deleted.\n", asked.out());
    assertEquals(List.of("Delete 6 jobs that ended more than 30d ago, with their logs? [y/N] "), cli.io.questions);
    cli.io.stdinTty = false;
    Cli.Result refused = cli.run("clean", "--older-than", "2w");
    assertEquals(1, refused.code());
    assertEquals("gq: deleting 6 jobs that ended more than 14d ago needs confirmation; pass --yes to do it without asking\n",
        refused.err());
    assertTrue(cli.api.cleans.isEmpty());
    cli.io.answers.add("y");
    cli.io.stdinTty = true;
    assertEquals(0, cli.run("clean").code());
    assertEquals(1, cli.api.cleans.size());
  }

  @Test
  void cleanRefusesLiveStatesAndBadAges() {
    Cli.Result live = cli.run("clean", "--state", "RUNNING", "-y");
    assertEquals(2, live.code());
    assertTrue(live.err().startsWith("gq: --state RUNNING is not an ended state"), live.err());
    Cli.Result age = cli.run("clean", "--older-than", "14", "-y");
    assertEquals("gq: invalid duration '14' for --older-than; use a count and a unit such as 30m, 2h, 3d\nTry 'gq clean --help'.\n",
        age.err());
  }

  @Test
  void nothingOldEnoughSaysSo() {
    assertEquals("No jobs ended more than 3650d ago.\n", cli.run("clean", "--older-than", "3650d", "-y").out());
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PsScreenTest {
  /** 30 ended jobs (1-30), then 5 live ones (31-35). */
  private static Cli history() {
    Cli cli = new Cli(Path.of("/tmp"));
    for (long id = 1; id <= 30; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    for (long id = 31; id <= 33; id++) cli.api.add(Jobs.job(id, JobState.RUNNING));
    for (long id = 34; id <= 35; id++) cli.api.add(Jobs.job(id, JobState.WAITING));
    return cli;
  }

  @Test
  void onAnEightyByTwentyFourTerminalTheHeaderAndEveryLiveJobStayOnScreen() {
    Cli cli = history();
    cli.io.height = 24;
    cli.io.width = 80;
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.toString());
    long lines = r.out().lines().count() + r.err().lines().count();
    assertTrue(lines <= 23, "a line is left for the prompt: " + lines + "\n" + r.out() + r.err());
    assertTrue(r.out().startsWith("JOB"), r.out());
    for (long id = 31; id <= 35; id++) {
      String row = String.valueOf(id);
      assertTrue(r.out().lines().anyMatch(l -> l.startsWith(row + " ")), "live job " + id + " shown");
    }
    assertEquals(1 + 5 + 16, r.out().lines().count(), r.out());
    assertEquals("gq: 14 more ended jobs are not shown; 'gq ps --all' lists them\n", r.err());
    // a line wider than the terminal wraps onto two and pushes the header off the screen
    for (String line : (r.out() + r.err()).lines().toList()) assertTrue(line.length() <= 80, "fits 80 columns: " + line);
  }

  @Test
  void aHeldGroupsNoticeThatTheTerminalWrapsIsCountedSoTheHeaderStaysOnScreen() {
    Cli cli = history();
    String sweep = "a-really-long-group-name-for-the-hyperparameter-sweep-of-the-big-model-v3";
    cli.api.add(Jobs.job(36, JobState.WAITING, Jobs.spec(1, "train", sweep, null, "python", "train.py")));
    cli.api.groupList = List.of(new ApiReplies.GroupSummary(sweep, Map.of(JobState.WAITING, 1, JobState.FAILED, 3), 0,
        "3 jobs in a row failed within 60 s of starting (20066, 20067, 20068): exited with status 1", true));
    cli.io.height = 24;
    cli.io.width = 80;
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().startsWith("JOB"), r.out());
    // the lines as the terminal shows them: each wrapped at 80 columns; one is left for the prompt
    long shown = (r.out() + r.err()).replaceAll("\u001b\\[[0-9;]*m", "").lines()
        .mapToLong(l -> Math.max(1, (l.length() + 79) / 80)).sum();
    assertTrue(shown <= 23, "the header stays on screen: " + shown + " lines\n" + r.out() + r.err());
    assertTrue(r.err().contains("gq: group " + sweep + " is held: "), r.err());
    for (long id = 31; id <= 36; id++) {
      String row = String.valueOf(id);
      assertTrue(r.out().lines().anyMatch(l -> l.startsWith(row + " ")), "live job " + id + " shown");
    }
  }

  @Test
  void pipedOutputKeepsTheTwentyNewestEndedJobs() {
    Cli cli = history();
    cli.io.height = 24;
    cli.io.stdoutTty = false;
    Cli.Result r = cli.run("ps");
    assertEquals(1 + 5 + 20, r.out().lines().count(), r.out());
    assertEquals("gq: older ended jobs are not shown; 'gq ps --all' lists them\n", r.err());
  }

  @Test
  void aTallTerminalShowsTheUsualTwentyAndATinyOneStillEveryLiveJob() {
    Cli tall = history();
    tall.io.height = 50;
    assertEquals(1 + 5 + 20, tall.run("ps").out().lines().count());
    Cli tiny = history();
    tiny.io.height = 5;
    Cli.Result r = tiny.run("ps");
    assertEquals(1 + 5, r.out().lines().count(), r.out());
    assertTrue(r.err().startsWith("gq: 30 more ended jobs are not shown"), r.err());
  }
}

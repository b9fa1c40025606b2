package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  void aTallTerminalShowsTheUsualTwentyAndATinyOneTheRunningJobsAndHowManyWaitBesides() {
    Cli tall = history();
    tall.io.height = 50;
    assertEquals(1 + 5 + 20, tall.run("ps").out().lines().count());
    Cli tiny = history();
    tiny.io.height = 5;
    Cli.Result r = tiny.run("ps");
    assertEquals(0, r.code(), r.toString());
    List<String> lines = r.out().lines().toList();
    assertEquals(List.of("JOB", "33", "32", "31"), lines.subList(0, 4).stream().map(l -> l.split(" ")[0]).toList(), r.out());
    assertEquals("\u2026 2 more waiting jobs not shown: gq ps | less, or gq ps --json", lines.get(4), r.out());
    assertEquals(5, lines.size(), r.out());
    assertEquals("", r.err());
  }

  @Test
  void aQueueLongerThanTheScreenShowsTheRunningJobsAndTheNewestWaitingOnesMeasuredOverThemAlone() {
    Cli cli = new Cli(Path.of("/tmp"));
    cli.io.env.put("NO_COLOR", "1");
    for (long id = 1; id <= 30; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    for (long id = 31; id <= 33; id++) cli.api.add(Jobs.job(id, JobState.RUNNING));
    // the oldest waiting job has the longest name: not shown, it does not widen NAME
    cli.api.add(Jobs.job(34, JobState.WAITING, Jobs.spec(0, "a-much-longer-name-than-the-others", null, null, "make", "all")));
    for (long id = 35; id <= 2033; id++) cli.api.add(Jobs.job(id, JobState.WAITING, Jobs.spec(0, null, null, null, "make", "all")));
    cli.io.height = 24;
    cli.io.width = 80;
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.toString());
    List<String> lines = r.out().lines().toList();
    // the header, 21 rows, the closing line; one line is left for the prompt
    assertEquals(23, lines.size(), r.out());
    assertEquals("JOB   STATE    GPUS  NAME    WAIT  ELAPSED       COMMAND", lines.get(0));
    List<String> ids = lines.subList(1, 22).stream().map(l -> l.split(" ")[0]).toList();
    List<String> want = new ArrayList<>();
    for (long id = 2033; id > 2015; id--) want.add(String.valueOf(id));
    want.addAll(List.of("33", "32", "31"));
    assertEquals(want, ids);
    assertEquals("2033  WAITING  -     make    -     -             make all", lines.get(1));
    assertEquals("\u2026 1,982 more waiting jobs not shown: gq ps | less, or gq ps --json", lines.get(22));
    assertEquals("", r.err());
    // the waiting jobs read are those shown: no read of the whole queue
    for (JobQuery q : cli.api.queries)
      assertTrue(q.limit() <= PsPages.PAGE && (q.limit() > 0 || q.states().equals(Set.of(JobState.WAITING))
          || !q.states().contains(JobState.WAITING)), "a read of " + q.limit() + " job(s) in " + q.states());
  }

  @Test
  void aQueueLongerThanTheScreenIsWholeInAPipe() {
    Cli cli = new Cli(Path.of("/tmp"));
    for (long id = 1; id <= 600; id++) cli.api.add(Jobs.job(id, JobState.WAITING));
    cli.io.height = 24;
    cli.io.stdoutTty = false;
    Cli.Result r = cli.run("ps");
    assertEquals(1 + 600, r.out().lines().count());
    assertEquals("", r.err());
  }
}

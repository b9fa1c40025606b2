package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PsCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.now = Jobs.T0.plusSeconds(3600);
    cli.io.env.put("NO_COLOR", "1"); // the tests of colour remove it
  }

  @Test
  void tableShowsJobsNewestFirst() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    cli.api.add(Jobs.job(2, JobState.RUNNING, Jobs.spec(2, "train", null, null, "python", "t.py", "--lr", "3")));
    cli.api.add(Jobs.job(3, JobState.WAITING, Jobs.spec(0, null, null, null, "make", "all")));
    cli.api.waits.put(3L, new WaitReason.QueueHeld());
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        JOB  STATE    GPUS  NAME    WAIT        ELAPSED  EXIT  COMMAND
        3    WAITING  -     make    queue held  -        -     make all
        2    RUNNING  0,1   train   -           59:59    -     python t.py --lr 3
        1    DONE     0     python  -           0:59     0     python train.py
        """, r.out());
  }

  @Test
  void namesGroupsAndCommandsWithHiddenCharactersAreShownEscaped() {
    cli.io.stdoutTty = false;
    cli.api.add(Jobs.job(1, JobState.RUNNING, Jobs.spec(1, "a\u202eb", "g\u2028h", null, "echo", "x\u0085y", "\u2066")));
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        JOB  STATE    GPUS  GROUP     NAME      ELAPSED  COMMAND
        1    RUNNING  0     g\\u2028h  a\\u202eb  59:59    echo $'x\\u0085y' $'\\u2066'
        """, r.out());
  }

  @Test
  void groupColumnAppearsOnlyWhenAJobHasAGroup() {
    cli.api.add(Jobs.job(1, JobState.RUNNING, Jobs.spec(1, null, "sweep", null, "x")));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    String out = cli.run("ps").out();
    assertTrue(out.startsWith("JOB  STATE    GPUS  GROUP  NAME    ELAPSED  COMMAND\n"), out);
    assertTrue(out.contains("\n1    RUNNING  0     sweep  x       59:59    x\n"), out);
    assertEquals(0, cli.api.waitReasonCalls, "no waiting job, no question about reasons");
  }

  @Test
  void waitingJobWithoutGpusShowsTheCountItAsksFor() {
    cli.api.add(Jobs.job(1, JobState.WAITING, Jobs.spec(4, null, null, null, "x")));
    assertTrue(cli.run("ps").out().contains("\n1    WAITING  (4)   x"));
  }

  @Test
  void commandIsCutToTheTerminalWidth() {
    cli.io.width = 50;
    cli.api.add(Jobs.job(1, JobState.RUNNING, Jobs.spec(1, "n", null, null, "python", "a-very-long-script-name.py")));
    String row = cli.run("ps").out().lines().toList().get(1);
    assertEquals(50, row.length(), row);
    assertTrue(row.endsWith("…"), row);
  }

  @Test
  void commandIsNotCutWhenOutputIsNotATerminal() {
    cli.io.width = 40;
    cli.io.stdoutTty = false;
    cli.api.add(Jobs.job(1, JobState.RUNNING, Jobs.spec(1, "n", null, null, "python", "a-very-long-script-name.py")));
    assertTrue(cli.run("ps").out().contains("python a-very-long-script-name.py\n"));
  }

  @Test
  void defaultViewShowsLiveJobsAndTheLastTwentyEnded() {
    for (long id = 1; id <= 30; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    cli.api.add(Jobs.job(31, JobState.RUNNING));
    cli.api.add(Jobs.job(5, JobState.WAITING));
    var lines = cli.run("ps").out().lines().toList();
    assertEquals(1 + 2 + 20, lines.size(), "header, two live jobs, the 20 newest ended ones");
    assertTrue(lines.get(1).startsWith("31 "));
    assertTrue(lines.get(21).startsWith("11 "));
    assertTrue(lines.get(22).startsWith("5 "), "an old live job is never hidden");
  }

  @Test
  void defaultViewSaysWhenOlderJobsAreHidden() {
    for (long id = 1; id <= 25; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    cli.api.add(Jobs.job(26, JobState.WAITING));
    Cli.Result r = cli.run("ps");
    assertEquals(1 + 1 + 20, r.out().lines().count());
    assertTrue(r.out().lines().toList().get(1).startsWith("26 "));
    assertTrue(r.out().lines().toList().get(21).startsWith("6 "));
    assertEquals("gq: older ended jobs are not shown; 'gq ps --all' lists them\n", r.err());
  }

  @Test
  void unreadableJobsAreSkippedNamedOnStderrAndFailTheExitCode() {
    for (long id = 1; id <= 1100; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    // 601 is the last row of the first page of 500, 101-102 the end of the second
    cli.api.unreadable.addAll(List.of(601L, 101L, 102L));
    Cli.Result r = cli.run("ps", "--all");
    assertEquals(1, r.code());
    assertEquals(1 + 1097, r.out().lines().count(), "every readable job once");
    assertTrue(r.out().lines().noneMatch(l -> l.startsWith("601 ") || l.startsWith("101 ")), r.out());
    assertEquals("gq: jobs 101-102, 601 could not be read from the history (a damaged record) and are not listed;"
        + " their events are still in 'gq events --job ID'\n", r.err());
    Cli.Result json = cli.run("ps", "--all", "--json");
    assertEquals(1, json.code());
    assertTrue(json.err().startsWith("gq: jobs 101-102, 601 could not be read"), json.err());
  }

  @Test
  void oneUnreadableJobOfAShortListIsNamed() {
    for (long id = 1; id <= 3; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    cli.api.unreadable.add(2L);
    Cli.Result r = cli.run("ps");
    assertEquals(1, r.code());
    assertEquals(3, r.out().lines().count(), r.out());
    assertTrue(r.err().startsWith("gq: job 2 could not be read from the history (a damaged record) and is not listed;"), r.err());
  }

  @Test
  void allListsEveryJob() {
    for (long id = 1; id <= 25; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    Cli.Result r = cli.run("ps", "--all");
    assertEquals(26, r.out().lines().count());
    assertEquals("", r.err());
    assertEquals(r.out(), cli.run("ps", "-a").out(), "-a as in docker ps -a");
  }

  @Test
  void filtersGoToTheDaemon() {
    cli.run("ps", "12", "300-440", "--state", "running", "--state", "WAITING", "--group", "g", "--limit", "5");
    JobQuery q = cli.api.queries.get(0);
    assertEquals(2, q.ranges().size());
    assertEquals(300, q.ranges().get(1)[0]);
    assertEquals(Set.of(JobState.RUNNING, JobState.WAITING), q.states());
    assertEquals("g", q.group());
    assertEquals(5, q.limit());
  }

  @Test
  void emptyQueueSaysHowToStart() {
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code());
    assertEquals("No jobs.\nQueue one with 'gq -g 1 CMD...' or 'gq submit SCRIPT'.\n", r.out());
  }

  @Test
  void emptyFilterSaysNothingMatches() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    assertEquals("No jobs.\nNone match these filters; 'gq ps --all' lists every job.\n", cli.run("ps", "7").out());
  }

  @Test
  void badRangeIsAUsageError() {
    Cli.Result r = cli.run("ps", "9-3");
    assertEquals(2, r.code());
    assertEquals("gq: invalid range '9-3': the first id must not exceed the second\nTry 'gq ps --help'.\n", r.err());
  }

  @Test
  void badStateAndLimitAreUsageErrors() {
    assertEquals(2, cli.run("ps", "--state", "HAPPY").code());
    assertEquals(2, cli.run("ps", "--limit", "0").code());
  }

  @Test
  void jsonIsAnArrayOfJobObjects() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    String out = cli.run("ps", "--json").out();
    assertTrue(out.startsWith("[\n  {\n    \"id\": 1,\n"), out);
    assertEquals("[]\n", cli.run("ps", "--json", "9").out());
  }

  @Test
  void groupListEndsWithItsSummaryLine() {
    cli.api.add(Jobs.job(1, JobState.DONE, Jobs.spec(1, null, "sweep", null, "x")));
    cli.api.add(Jobs.job(2, JobState.RUNNING, Jobs.spec(1, null, "sweep", null, "x")));
    cli.api.groupList = List.of(new GqApi.GroupSummary("sweep", java.util.Map.of(JobState.DONE, 1, JobState.RUNNING, 1), 1, null, false));
    Cli.Result r = cli.run("ps", "--group", "sweep");
    assertTrue(r.out().endsWith("\nsweep: 1 DONE, 1 RUNNING (plus 1 earlier attempt, since retried)\n"), r.out());
  }

  @Test
  void waitingJobsOfAHeldGroupShowAsHeld() {
    cli.api.add(Jobs.job(1, JobState.WAITING, Jobs.spec(1, null, "broken", null, "x")));
    cli.api.groupList = List.of(new GqApi.GroupSummary("broken", java.util.Map.of(JobState.WAITING, 1), 0, "paused by user", false));
    Cli.Result r = cli.run("ps");
    assertTrue(r.out().contains("\n1    HELD "), r.out());
    assertEquals("gq: group broken is held: paused by user\n", r.err());
  }

  @Test
  void longListsArePrintedInPagesWithTheFirstPagesColumns() {
    for (long id = 1; id <= 1200; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    Cli.Result r = cli.run("ps", "--all");
    List<String> lines = r.out().lines().toList();
    assertEquals(1201, lines.size());
    assertEquals("JOB   STATE  GPUS  GROUP  NAME    ELAPSED  EXIT  COMMAND", lines.get(0));
    assertTrue(lines.get(1200).startsWith("1     DONE "), lines.get(1200));
    assertEquals(3, cli.api.queries.size(), "three pages of 500");
    assertEquals(500, cli.api.queries.get(0).limit());
    assertEquals(701, cli.api.queries.get(1).belowId());
  }

  @Test
  void pagedJsonIsOneArrayLikeAWholeOne() {
    for (long id = 1; id <= 501; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    String paged = cli.run("ps", "--all", "--json").out();
    List<dev.gq.core.job.Job> all = new java.util.ArrayList<>(cli.api.jobs.values());
    java.util.Collections.reverse(all);
    assertEquals(JsonView.pretty(JsonView.jobs(all)) + "\n", paged);
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupsCommandTest {
  @TempDir Path dir;
  Cli cli;

  static final GroupSummary SWEEP = new GroupSummary("sweep",
      Map.of(JobState.DONE, 3, JobState.RUNNING, 1, JobState.WAITING, 2, JobState.STARTING, 1), 1, null, false);
  static final GroupSummary BROKEN = new GroupSummary("broken",
      Map.of(JobState.FAILED, 3, JobState.WAITING, 5), 0, "3 jobs in a row failed within 60s of starting (7, 8, 9)", true);

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
  }

  @Test
  void tableCountsLatestAttemptsAndShowsRetriedAndHolds() {
    cli.api.groupList = List.of(BROKEN, SWEEP);
    Cli.Result r = cli.run("groups");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        GROUP   STATUS            WAITING  RUNNING  DONE  FAILED  CANCELLED  RETRIED
        broken  held (fail-fast)  5        0        0     3       0          0
        sweep   -                 2        2        3     0       0          1
        """, r.out());
    assertEquals("""
        gq: counts cover each job's latest attempt; RETRIED is how many attempts a retry replaced
        gq: group broken is held: 3 jobs in a row failed within 60s of starting (7, 8, 9)
            fix the cause, then 'gq retry --group broken --failed', or release it as is with 'gq release --group broken'
        """, r.err());
  }

  @Test
  void groupNamesFromBeforeTheLabelRuleAreShownEscaped() {
    cli.api.groupList = List.of(new GroupSummary("evil\u202etxt\u0085", Map.of(JobState.FAILED, 3), 0, "held by hand", false));
    Cli.Result r = cli.run("groups");
    assertTrue(r.out().contains("\nevil\\u202etxt\\u0085  "), r.out());
    assertTrue(r.err().contains("gq: group evil\\u202etxt\\u0085 is held: held by hand\n"), r.err());
    assertFalse(r.out().contains("\u202e") || r.err().contains("\u202e") || r.out().contains("\u0085"), r.out());
  }

  @Test
  void aTerminalGetsAProgressBar() {
    cli.io.stdoutTty = true;
    cli.api.groupList = List.of(SWEEP);
    String out = cli.run("groups").out();
    assertTrue(out.contains("PROGRESS"), out);
    assertTrue(out.contains("[########............] 3/7"), out);
  }

  @Test
  void onAnEightyColumnTerminalTheStatusIsNeverCutAndTheNameAndBarGiveWay() {
    cli.io.stdoutTty = true;
    cli.io.width = 80;
    GroupSummary lr = new GroupSummary("lr-sweep-resnet50-imagenet", Map.of(JobState.FAILED, 3, JobState.WAITING, 5,
        JobState.TIMEOUT, 1), 2, "3 jobs in a row failed", true);
    cli.api.groupList = List.of(lr, SWEEP);
    String out = cli.run("groups").out();
    for (String line : out.lines().toList()) assertTrue(line.length() <= 80, line.length() + ": " + line);
    assertTrue(out.lines().skip(1).findFirst().orElseThrow().contains("held (fail-fast)"), out);
    assertFalse(out.contains("PROGRESS"), "the bar gives way first: " + out);
    assertTrue(out.lines().findFirst().orElseThrow().endsWith("TIMEOUT"), "the counts that fit are whole: " + out);
  }

  @Test
  void onAnEightyColumnTerminalTwoVersionsOfALongSweepNameStayToldApart() {
    cli.io.stdoutTty = true;
    cli.io.width = 80;
    String name = "a-really-long-group-name-for-the-hyperparameter-sweep-of-the-big-model-";
    GroupSummary v2 = new GroupSummary(name + "v2", Map.of(JobState.DONE, 6, JobState.FAILED, 1), 0, null, false);
    GroupSummary v3 = new GroupSummary(name + "v3", Map.of(JobState.FAILED, 4, JobState.WAITING, 1), 0,
        "3 jobs in a row failed", true);
    cli.api.groupList = List.of(v2, v3);
    List<String> rows = cli.run("groups").out().lines().skip(1).toList();
    assertEquals(2, rows.size(), rows.toString());
    for (String row : rows) assertTrue(row.length() <= 80, row.length() + ": " + row);
    String first = rows.get(0).split("  ")[0];
    String second = rows.get(1).split("  ")[0];
    assertTrue(first.startsWith("a-really") && first.contains("…") && first.endsWith("v2"), first);
    assertTrue(second.endsWith("v3"), second);
    assertTrue(rows.get(1).contains("held (fail-fast)"), rows.get(1));
  }

  @Test
  void rareStatesGetAColumnOnlyWhenPresent() {
    cli.api.groupList = List.of(new GroupSummary("g", Map.of(JobState.TIMEOUT, 1, JobState.INTERRUPTED, 2), 0, null, false));
    String header = cli.run("groups").out().lines().findFirst().orElseThrow();
    assertEquals("GROUP  STATUS  WAITING  RUNNING  DONE  FAILED  CANCELLED  INTERRUPTED  TIMEOUT", header);
  }

  @Test
  void noGroupsSaysHowToMakeOne() {
    assertEquals("No groups yet. Submit with --group NAME, or set GQ_GROUP in a sweep script.\n", cli.run("groups").out());
  }

  @Test
  void jsonHasEveryStateAndTheHold() {
    cli.api.groupList = List.of(BROKEN);
    String out = cli.run("groups", "--json").out();
    assertTrue(out.startsWith("[\n  {\n    \"group\": \"broken\",\n    \"counts\": {\n      \"WAITING\": 5,"), out);
    assertTrue(out.contains("\"TIMEOUT\": 0"), out);
    assertTrue(out.contains("\"retried\": 0,\n    \"held\": true,\n    \"hold_reason\": \"3 jobs in a row"), out);
    assertEquals("[]\n", new Cli(dir).run("groups", "--json").out());
  }

  @Test
  void summaryLineSortsStatesAndShowsHeldAndRetried() {
    assertEquals("sweep: 3 DONE, 1 RUNNING, 1 STARTING, 2 WAITING (plus 1 earlier attempt, since retried)", GroupText.summary(SWEEP));
    assertEquals("broken: 3 FAILED, 5 HELD", GroupText.summary(BROKEN));
    assertEquals("empty: no jobs", GroupText.summary(new GroupSummary("empty", Map.of(), 0, null, false)));
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code gq ps} fits the terminal, which columns it shows, and when it colours states. */
class PsFormatTest {
  private static final String GREEN = "\u001b[32m";
  private static final String RED = "\u001b[31m";
  private static final String YELLOW = "\u001b[33m";
  private static final String RESET = "\u001b[0m";
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.now = Jobs.T0.plusSeconds(2 * 3600 + 5);
    cli.io.env.put("NO_COLOR", "1");
  }

  /** A sweep's typical list: a held job, a busy wait with its whole reason, a long command, every state column filled. */
  private void sweep() {
    String cmd = "--config=configs/resnet50-imagenet-lr0.003-wd0.0001.yaml";
    cli.api.add(Jobs.job(101, JobState.DONE, Jobs.spec(1, "resnet50-lr0.003-wd0.0001", "resnet-sweep", null, "python", "train.py", cmd)));
    cli.api.add(Jobs.job(102, JobState.FAILED, Jobs.spec(1, "resnet50-lr0.01-wd0.0001", "resnet-sweep", null, "python", "train.py", cmd)));
    cli.api.add(Jobs.job(103, JobState.RUNNING, Jobs.spec(2, "resnet50-lr0.1-wd0.001", "resnet-sweep", null, "python", "train.py", cmd)));
    cli.api.add(Jobs.job(104, JobState.WAITING, Jobs.spec(2, "resnet50-lr1.0-wd0.01", "resnet-sweep", null, "python", "train.py", cmd)));
    cli.api.waits.put(104L, new WaitReason.GpusBusy(2, 0, List.of(FakeApi.holder(0, GpuState.RUNNING, 103L),
        FakeApi.holder(1, GpuState.RUNNING, 103L), FakeApi.holder(2, GpuState.EXTERNAL, null), FakeApi.holder(3, GpuState.UNKNOWN, null))));
  }

  @Test
  void rowsFitEightyColumnsWithTheBriefWaitReason() {
    cli.io.width = 80;
    sweep();
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(5, lines.size(), r.out());
    for (String l : lines) assertTrue(l.length() <= 80, l.length() + " columns: " + l);
    assertEquals(List.of("JOB", "STATE", "GPUS", "GROUP", "NAME", "WAIT", "ELAPSED", "EXIT", "COMMAND"),
        List.of(lines.get(0).split(" +")));
    assertTrue(lines.get(1).contains("  GPUs busy  "), lines.get(1));
    assertFalse(r.out().contains("needs 2 GPUs"), "the whole reason is for 'gq show'");
    assertTrue(lines.get(2).contains("  2:00:04  -     python"), lines.get(2));
    assertTrue(lines.get(3).contains("  0:59     3     python"), lines.get(3));
    assertTrue(lines.get(3).endsWith("…"), "the command gives way first: " + lines.get(3));
  }

  @Test
  void aListOfOneGroupLeavesOutTheGroupColumn() {
    sweep();
    String out = cli.run("ps", "--group", "resnet-sweep").out();
    assertTrue(out.startsWith("JOB  STATE    GPUS  NAME "), out);
    assertTrue(cli.run("ps", "--group", "resnet-sweep", "-o", "id,group").out().contains("\n104  resnet-sweep\n"));
  }

  @Test
  void showKeepsTheWholeWaitReason() {
    sweep();
    assertTrue(cli.run("show", "104").out().contains("needs 2 GPUs, 0 free (GPU 0: job 103; GPU 1: job 103;"));
  }

  @Test
  void aPipeGetsEveryCellWhole() {
    cli.io.stdoutTty = false;
    cli.io.width = 80;
    sweep();
    Cli.Result r = cli.run("ps");
    assertFalse(r.out().contains(TextTable.ELLIPSIS), r.out());
    assertTrue(r.out().contains("  resnet50-lr0.003-wd0.0001  "), r.out());
    assertTrue(r.out().contains("python train.py --config=configs/resnet50-imagenet-lr0.003-wd0.0001.yaml\n"), r.out());
    assertTrue(r.out().contains("  GPUs busy  "), "the table's columns do not depend on where it goes: " + r.out());
  }

  @Test
  void formatChoosesTheColumnsAndTheirOrder() {
    cli.api.add(Jobs.job(7, JobState.RUNNING, Jobs.spec(2, "train", null, "k7", "python", "t.py")));
    cli.api.add(Jobs.job(8, JobState.FAILED, Jobs.spec(1, "eval", null, null, "python", "e.py")));
    assertEquals("""
        JOB  STATE    GPUS  ELAPSED  NAME
        8    FAILED   0     0:59     eval
        7    RUNNING  0,1   2:00:04  train
        """, cli.run("ps", "-o", "id,state,gpus,elapsed,name").out());
    assertEquals("""
        EXIT  PID   KEY  JOB
        3     1008  -    8
        -     1007  k7   7
        """, cli.run("ps", "--format", "exit, PID,key,job").out());
  }

  @Test
  void aBadColumnNameIsAUsageErrorNamingTheValidOnes() {
    Cli.Result r = cli.run("ps", "-o", "id,stat");
    assertEquals(2, r.code());
    assertEquals("gq: unknown column 'stat' in --format; the columns are id,state,pos,priority,gpus,pid,group,key,name,wait,elapsed,progress,note,exit,command",
        r.err().lines().findFirst().orElseThrow());
    assertTrue(cli.run("ps", "-o", "id,,state").err().startsWith("gq: an empty column name in --format;"));
    assertEquals(2, cli.run("ps", "-o", "id", "--json").code());
  }

  @Test
  void noHeaderPrintsOnlyTheRows() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    assertEquals("1\n", cli.run("ps", "--no-header", "-o", "id").out());
  }

  @Test
  void statesAreColouredOnATerminalWithoutChangingTheColumns() {
    cli.io.env.remove("NO_COLOR");
    cli.api.add(Jobs.job(1, JobState.FAILED));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    cli.api.add(Jobs.job(3, JobState.WAITING, Jobs.spec(1, null, "g", null, "x")));
    cli.api.add(Jobs.job(4, JobState.DONE));
    cli.api.groupList = List.of(new GqApi.GroupSummary("g", java.util.Map.of(JobState.WAITING, 1), 0, "held by the user", false));
    String out = cli.run("ps", "-o", "id,state,name").out();
    assertEquals("JOB  STATE    NAME\n"
        + "4    DONE     python\n"
        + "3    " + YELLOW + "HELD" + RESET + "     x\n"
        + "2    " + GREEN + "RUNNING" + RESET + "  python\n"
        + "1    " + RED + "FAILED" + RESET + "   python\n", out);
  }

  @Test
  void noColourWithNoColorSetOrWhenPiped() {
    cli.api.add(Jobs.job(1, JobState.FAILED));
    assertFalse(cli.run("ps").out().contains("\u001b"), "NO_COLOR is set");
    cli.io.env.remove("NO_COLOR");
    cli.io.env.put("TERM", "dumb");
    assertFalse(cli.run("ps").out().contains("\u001b"), "a dumb terminal");
    cli.io.env.remove("TERM");
    cli.io.stdoutTty = false;
    assertFalse(cli.run("ps").out().contains("\u001b"), "a pipe");
    assertFalse(cli.run("ps", "--json").out().contains("\u001b"), "JSON");
  }
}

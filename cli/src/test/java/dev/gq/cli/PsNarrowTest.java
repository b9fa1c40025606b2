package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gq ps} on a terminal too narrow for COMMAND: NAME tells unnamed jobs apart. */
class PsNarrowTest {
  /** "needs 1 GPU, 0 free (GPU 0: job 9; GPU 1: job 10)". */
  private static final WaitReason BUSY = new WaitReason.GpusBusy(1, 0,
      List.of(FakeApi.holder(0, GpuState.RUNNING, 9L), FakeApi.holder(1, GpuState.RUNNING, 10L)));
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.now = Jobs.T0.plusSeconds(3600);
    cli.io.env.put("NO_COLOR", "1");
    cli.api.add(Jobs.job(1, JobState.FAILED, Jobs.spec(1, null, "lr-sweep", null, "python", "train.py", "--lr", "0.1")));
    for (long id = 2; id <= 4; id++) {
      cli.api.add(Jobs.job(id, JobState.WAITING, Jobs.spec(1, null, "lr-sweep", null, "python", "train.py", "--lr", "0." + id)));
      cli.api.waits.put(id, BUSY);
    }
    cli.api.add(Jobs.job(5, JobState.WAITING, Jobs.spec(1, null, "lr-sweep", "lr-0.5", "python", "train.py", "--lr", "0.5")));
    cli.api.waits.put(5L, BUSY);
  }

  @Test
  void atEightyColumnsUnnamedJobsShowTheirArgumentsOrKeyInName() {
    cli.io.width = 80;
    List<String> rows = cli.run("ps").out().lines().toList();
    assertTrue(rows.get(0).startsWith("JOB  STATE    GPUS  GROUP     NAME"), rows.get(0));
    assertTrue(rows.get(1).contains("  lr-0.5  "), "the key: " + rows.get(1));
    for (int i = 2; i <= 4; i++)
      assertTrue(rows.get(i).contains("  lr-sweep  train… 0." + (6 - i) + "  GPUs busy"), "the arguments, cut in the middle: " + rows.get(i));
    for (String row : rows) assertTrue(row.length() <= 80, row);
  }

  @Test
  void onAWideTerminalWhereCommandIsShownNameIsUnchanged() {
    cli.io.width = 200;
    List<String> rows = cli.run("ps").out().lines().toList();
    assertTrue(rows.get(2).contains("  python  "), rows.get(2));
    assertTrue(rows.get(2).endsWith("python train.py --lr 0.4"), rows.get(2));
  }
}

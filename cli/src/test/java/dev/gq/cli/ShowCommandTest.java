package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiReplies;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.env.put("TZ", "UTC");
  }

  @Test
  void showsEveryFieldItHasOnItsOwnLineAndLeavesOutTheOthers() {
    cli.api.add(Jobs.job(3, JobState.FAILED, Jobs.spec(2, "train", "sweep", "lr=1", "python", "a b.py")));
    Cli.Result r = cli.run("show", "3");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        Job ID:      3
        Name:        train
        State:       FAILED
        Group:       sweep
        Key:         lr=1
        Command:     python 'a b.py'
        Working dir: /work
        GPUs:        2 (indices 0,1)
        GPU UUIDs:   GPU-uuid-0, GPU-uuid-1
        Submitted:   2025-03-01 10:00:00
        Started:     2025-03-01 10:00:01
        Ended:       2025-03-01 10:01:00
        Elapsed:     0:59
        PID:         1003
        PGID:        1003
        Exit code:   3
        Log:         /data/gq/logs/3.log
        Failure:     command exited with status 3
        """, r.out());
    assertTrue(r.out().lines().count() <= 22, "fits an 80x24 screen with the command line and a prompt");
  }

  @Test
  void labelsWithHiddenCharactersAreShownEscaped() {
    cli.api.add(Jobs.job(3, JobState.RUNNING, Jobs.spec(1, "n\u202eame", "g\u0085", "k\u2029", "true")));
    String out = cli.run("show", "3").out();
    assertTrue(out.contains("Name:        n\\u202eame\n"), out);
    assertTrue(out.contains("Group:       g\\u0085\n"), out);
    assertTrue(out.contains("Key:         k\\u2029\n"), out);
  }

  @Test
  void aReasonThatBeginsWithWaitingForDoesNotSayItTwice() {
    cli.api.add(Jobs.job(4, JobState.WAITING));
    cli.api.waits.put(4L, new WaitReason.After(19, false));
    assertTrue(cli.run("show", "4").out().endsWith("Waiting for: job 19 to end\n"));
  }

  @Test
  void waitingJobSaysWhyAndNeverShowsTheEnvironment() {
    cli.api.add(Jobs.job(4, JobState.WAITING));
    cli.api.waits.put(4L, new WaitReason.GpusBusy(1, 0, List.of()));
    String out = cli.run("show", "4").out();
    assertTrue(out.contains("GPUs:        1 requested\n"), out);
    assertFalse(out.contains("Started:"), out);
    assertTrue(out.endsWith("Waiting for: needs 1 GPU, 0 free\n"), out);
    assertFalse(out.contains("SECRET_THING"), out);
  }

  @Test
  void aWaitingJobOfAHeldGroupIsHeldAsGqPsSaysIt() {
    cli.api.add(Jobs.job(4, JobState.WAITING, Jobs.spec(1, "train", "sweep", null, "python", "train.py")));
    cli.api.add(Jobs.job(5, JobState.WAITING, Jobs.spec(1, "train", "other", null, "python", "train.py")));
    cli.api.groupList = java.util.List.of(new ApiReplies.GroupSummary("sweep", java.util.Map.of(JobState.WAITING, 1), 0,
        "held by hand", false));
    assertTrue(cli.run("show", "4").out().contains("State:       HELD\n"), cli.run("show", "4").out());
    assertTrue(cli.run("show", "5").out().contains("State:       WAITING\n"), "a group that is not held");
    assertTrue(cli.run("show", "4", "--json").out().contains("\"WAITING\""), "--json keeps the stored state");
  }

  @Test
  void jsonIsTheJobObject() {
    cli.api.add(Jobs.job(4, JobState.DONE));
    String out = cli.run("show", "4", "--json").out();
    assertTrue(out.startsWith("{\n  \"id\": 4,\n  \"name\": \"python\",\n  \"state\": \"DONE\",\n"), out);
    assertFalse(out.contains("SECRET_THING"), out);
  }

  @Test
  void unknownJobIsRefused() {
    Cli.Result r = cli.run("show", "99");
    assertEquals(1, r.code());
    assertEquals("gq: job 99 does not exist\n", r.err());
  }

  @Test
  void nonNumericIdIsAUsageError() {
    Cli.Result r = cli.run("show", "abc");
    assertEquals(2, r.code());
    assertEquals("gq: invalid job id 'abc'; use a number like 12\nTry 'gq show --help'.\n", r.err());
  }

  @Test
  void schedulingIsShown() {
    var spec = Jobs.spec("x").withAfter(java.util.List.of(new dev.gq.core.job.Dependency(7, false),
        new dev.gq.core.job.Dependency(8, true))).withRetries(2).withTimeLimit(java.time.Duration.ofHours(2));
    cli.api.add(Jobs.job(5, JobState.DONE, spec));
    String out = cli.run("show", "5").out();
    assertTrue(out.contains("After:       job 7 ends, job 8 ends DONE\nRetries:     2 left (a new attempt after a failure)\nTime limit:  2h\n"), out);
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaitCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
  }

  /** After {@code calls} more reads, job {@code id} is in {@code state}. */
  private void later(int calls, Job job) {
    for (int i = 1; i < calls; i++) cli.api.steps.add(() -> {});
    cli.api.steps.add(() -> cli.api.add(job));
  }

  private static Job retryOf(Job j, long root) {
    return new Job(j.id(), j.spec(), j.state(), j.submitTime(), j.startTime(), j.endTime(), j.gpus(), j.identity(),
        j.exitCode(), j.logPath(), j.failureReason(), j.tag(), root);
  }

  private static Job grouped(long id, JobState s, String group) {
    return Jobs.job(id, s, Jobs.spec(1, null, group, null, "x"));
  }

  @Test
  void oneJobExitsWithItsExitCode() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    later(3, Jobs.job(1, JobState.FAILED));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(3, r.code(), r.err());
    assertEquals("Job 1 ended FAILED (exit code 3)\n", r.out());
  }

  @Test
  void doneIsZeroAndAnEndWithoutExitCodeIsOne() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    cli.api.add(Jobs.job(2, JobState.CANCELLED));
    assertEquals(0, cli.run("wait", "1").code());
    Cli.Result cancelled = cli.run("wait", "2");
    assertEquals(1, cancelled.code());
    assertEquals("Job 2 ended CANCELLED\n", cancelled.out());
  }

  @Test
  void aCancelledJobIsOneWhateverItsProcessReturned() {
    Job j = Jobs.job(1, JobState.CANCELLED);
    cli.api.add(new Job(1, j.spec(), JobState.CANCELLED, j.submitTime(), j.startTime(), j.endTime(), j.gpus(), j.identity(),
        143, j.logPath(), "cancelled by user", j.tag(), null));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(1, r.code());
    assertEquals("Job 1 ended CANCELLED (exit code 143)\n", r.out());
  }

  @Test
  void oneJobIsFollowedThroughItsRetries() {
    cli.api.add(Jobs.job(1, JobState.FAILED));
    cli.api.add(retryOf(Jobs.job(2, JobState.RUNNING), 1));
    later(2, retryOf(Jobs.job(2, JobState.DONE), 1));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("gq: job 1 ended FAILED and was retried as job 2; waiting for that one\n", r.err());
    assertEquals("Job 2 ended DONE (exit code 0)\n", r.out());
  }

  @Test
  void unknownJobIsRefused() {
    Cli.Result r = cli.run("wait", "9");
    assertEquals(1, r.code());
    assertEquals("gq: job 9 does not exist\n", r.err());
  }

  @Test
  void severalJobsAreZeroOnlyWhenAllAreDone() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    later(2, Jobs.job(2, JobState.FAILED));
    Cli.Result bad = cli.run("wait", "1", "2");
    assertEquals(1, bad.code(), bad.err());
    assertEquals("2 jobs ended: 1 DONE, 1 FAILED\n", bad.out());
    cli.api.add(Jobs.job(3, JobState.DONE));
    assertEquals(0, cli.run("wait", "1,3").code());
  }

  @Test
  void aGroupIsWaitedForWithProgressOnATerminal() {
    cli.io.stdoutTty = true;
    cli.api.add(grouped(1, JobState.RUNNING, "sweep"));
    cli.api.add(grouped(2, JobState.DONE, "sweep"));
    cli.api.groupList = List.of(new GroupSummary("sweep", Map.of(JobState.DONE, 2), 0, null, false));
    later(3, grouped(1, JobState.DONE, "sweep"));
    Cli.Result r = cli.run("wait", "--group", "sweep");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("\r[####"), r.out());
    assertTrue(r.out().endsWith("\nsweep: 2 DONE\n"), r.out());
  }

  @Test
  void aProgressLineWiderThanTheTerminalIsCutSoItNeverWrapsAndIsDrawnOnlyWhenItChanges() {
    String group = "a-very-long-sweep-name-" + "x".repeat(60);
    cli.io.stdoutTty = true;
    cli.io.width = 80;
    cli.api.add(grouped(1, JobState.RUNNING, group));
    cli.api.groupList = List.of(new GroupSummary(group, Map.of(JobState.RUNNING, 1), 0, null, false));
    later(12, grouped(1, JobState.DONE, group));
    Cli.Result r = cli.run("wait", "--group", group);
    assertEquals(0, r.code(), r.err());
    String[] drawn = r.out().split("\r", -1);
    for (String d : drawn) {
      String row = d.contains("\n") ? d.substring(0, d.indexOf('\n')) : d;
      assertTrue(row.length() <= 79, "one column to spare: " + row.length() + " " + row);
    }
    assertEquals(2, drawn.length, "the unchanged line is drawn once: " + r.out());
  }

  @Test
  void timeoutExitsWith124AndOneLine() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    Cli.Result r = cli.run("wait", "1", "--timeout", "1s");
    assertEquals(124, r.code());
    assertEquals("gq: timed out after 1s: job 1 is RUNNING\n", r.err());
  }

  @Test
  void aCallerThatWentAwayEndsTheWait() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.io.closed = true;
    assertEquals(130, cli.run("wait", "1").code());
  }

  @Test
  void aFailFastHoldEndsTheWaitForItsWaitingJobs() {
    cli.api.add(grouped(1, JobState.FAILED, "broken"));
    cli.api.add(grouped(2, JobState.WAITING, "broken"));
    cli.api.groupList = List.of(new GroupSummary("broken", Map.of(JobState.FAILED, 1, JobState.WAITING, 1), 0,
        "3 jobs in a row failed", true));
    Cli.Result r = cli.run("wait", "--group", "broken");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: group broken is held (3 jobs in a row failed), so its waiting jobs will not start;"), r.err());
  }

  @Test
  void nothingToWaitForOrABadTimeoutAreUsageErrors() {
    assertEquals(2, cli.run("wait").code());
    assertEquals(2, cli.run("wait", "1", "--timeout", "10").code());
    assertEquals("gq: no job matches group nope; see 'gq ps --all'\n", cli.run("wait", "--group", "nope").err());
  }

  @Test
  void countOfJobsNotEndedAgreesInNumber() {
    assertEquals("1 job has not ended", WaitCommand.notEnded(1));
    assertEquals("3 jobs have not ended", WaitCommand.notEnded(3));
  }

  @Test
  void waitingForAWaitingJobSaysOnATerminalWhatItWaitsForThenThatItStarted() {
    cli.io.stderrTty = true;
    cli.api.add(Jobs.job(1, JobState.WAITING, Jobs.spec(2, null, null, null, "x")));
    cli.api.waits.put(1L, new WaitReason.QueueHeld());
    later(3, Jobs.job(1, JobState.RUNNING, Jobs.spec(2, null, null, null, "x")));
    later(3, Jobs.job(1, JobState.DONE));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("Job 1 ended DONE (exit code 0)\n", r.out());
    assertEquals("gq: job 1 is WAITING: the queue is held; 'gq release --all' lets jobs start; waiting for it to run and end\n"
        + "gq: job 1 started on GPUs 0,1\n", r.err());
  }

  @Test
  void waitingJobsNoteIsLeftOutWhenStderrIsNotATerminal() {
    cli.api.add(Jobs.job(1, JobState.WAITING));
    cli.api.waits.put(1L, new WaitReason.GpusBusy(1, 0, List.of()));
    later(3, Jobs.job(1, JobState.RUNNING));
    later(3, Jobs.job(1, JobState.DONE));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    assertEquals(0, cli.api.waitReasonCalls);
  }

  @Test
  void aJobCancelledBeforeItStartedIsNotSaidToHaveStarted() {
    cli.io.stderrTty = true;
    cli.api.add(Jobs.job(1, JobState.WAITING));
    later(3, Jobs.job(1, JobState.CANCELLED));
    Cli.Result r = cli.run("wait", "1");
    assertEquals(1, r.code());
    assertEquals("gq: job 1 is WAITING; waiting for it to run and end\n", r.err());
  }
}

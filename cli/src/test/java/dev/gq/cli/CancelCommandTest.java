package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiReplies.CancelOutcome.Kind;
import dev.gq.api.ApiReplies.CancelOutcome;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CancelCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.add(Jobs.job(1, JobState.WAITING));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    cli.api.add(Jobs.job(3, JobState.DONE));
    cli.api.add(Jobs.job(4, JobState.CANCELLING));
    cli.api.add(Jobs.job(5, JobState.WAITING, Jobs.spec(1, null, "sweep", null, "x")));
  }

  @Test
  void singleJobSaysWhatHappened() {
    assertEquals("Job 1: cancelled\n", cli.run("cancel", "1").out());
    assertEquals("Job 2: stopping (SIGTERM now, SIGKILL after the grace period)\n", cli.run("cancel", "2").out());
    assertEquals("Job 4: cancellation already in progress\n", cli.run("cancel", "4").out());
  }

  @Test
  void singleEndedOrUnknownJobIsRefused() {
    Cli.Result ended = cli.run("cancel", "3");
    assertEquals(1, ended.code());
    assertEquals("gq: job 3 is already DONE\n", ended.err());
    Cli.Result unknown = cli.run("cancel", "99");
    assertEquals(1, unknown.code());
    assertEquals("gq: job 99 does not exist\n", unknown.err());
  }

  @Test
  void nothingSelectedIsAUsageError() {
    Cli.Result r = cli.run("cancel");
    assertEquals(2, r.code());
    assertEquals("gq: say what to cancel: job ids or ranges (12 300-440), --group GROUP, or --waiting\n"
        + "Try 'gq cancel --help'.\n", r.err());
  }

  @Test
  void badRangeIsAUsageError() {
    assertEquals(2, cli.run("cancel", "1", "x-2").code());
  }

  @Test
  void waitingOnlyNeedsNoConfirmation() {
    cli.io.stdinTty = false;
    Cli.Result r = cli.run("cancel", "--waiting");
    assertEquals(0, r.code(), r.err());
    assertEquals("Cancelled 2 waiting jobs.\n", r.out());
    assertEquals(List.of(List.of(5L, 1L)), cli.api.cancels);
  }

  @Test
  void groupSelectsItsJobs() {
    assertEquals("Cancelled 1 waiting job.\n", cli.run("cancel", "--group", "sweep").out());
    assertEquals("sweep", cli.api.queries.get(0).group());
    assertEquals(Set.of(JobState.WAITING, JobState.STARTING, JobState.RUNNING, JobState.PREEMPTING), cli.api.queries.get(0).states());
  }

  @Test
  void severalJobsWithRunningOnesAskFirst() {
    cli.io.answers.add("y");
    Cli.Result r = cli.run("cancel", "1-5");
    assertEquals(List.of("Cancel 3 jobs (1 running, 2 waiting)? Running jobs will be killed. [y/N] "), cli.io.questions);
    assertEquals("Cancelled 2 waiting jobs, stopping 1 running job.\n", r.out());
  }

  @Test
  void declinedPromptCancelsNothing() {
    cli.io.answers.add("n");
    Cli.Result r = cli.run("cancel", "1-5");
    assertEquals(0, r.code());
    assertEquals("Nothing was cancelled.\n", r.out());
    assertTrue(cli.api.cancels.isEmpty());
  }

  @Test
  void noTerminalAndNoYesIsRefused() {
    cli.io.stdinTty = false;
    Cli.Result r = cli.run("cancel", "1", "2");
    assertEquals(1, r.code());
    assertEquals("gq: cancelling 2 jobs, 1 of them running, needs confirmation; pass --yes to do it without asking\n", r.err());
    assertTrue(cli.api.cancels.isEmpty());
  }

  @Test
  void yesSkipsThePrompt() {
    cli.io.stdinTty = false;
    assertEquals("Cancelled 2 waiting jobs, stopping 1 running job.\n", cli.run("cancel", "-y", "1-5").out());
    assertTrue(cli.io.questions.isEmpty());
  }

  @Test
  void noMatchingJobs() {
    Cli.Result r = cli.run("cancel", "3", "--waiting");
    assertEquals(0, r.code());
    assertEquals("No matching jobs to cancel.\n", r.out());
  }

  @Test
  void summaryCountsEveryOutcome() {
    List<CancelOutcome> all = List.of(new CancelOutcome(1, Kind.CANCELLED, null), new CancelOutcome(2, Kind.STOPPING, null),
        new CancelOutcome(3, Kind.STOPPING, null), new CancelOutcome(4, Kind.ALREADY_CANCELLING, null),
        new CancelOutcome(5, Kind.ALREADY_ENDED, null), new CancelOutcome(6, Kind.UNKNOWN, null));
    assertEquals("Cancelled 1 waiting job, stopping 2 running jobs, 1 already being cancelled, 1 had already ended, "
        + "1 no longer existed.", CancelCommand.summary(all));
    assertEquals("Nothing to do.", CancelCommand.summary(List.of()));
  }
}

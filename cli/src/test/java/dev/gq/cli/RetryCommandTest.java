package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.api.ApiReplies.Retried;
import dev.gq.api.ApiReplies.RetryReport;
import dev.gq.api.ApiReplies.RetrySkip;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Retries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.add(grouped(1, JobState.FAILED));
    cli.api.add(grouped(2, JobState.DONE));
    cli.api.add(grouped(3, JobState.CANCELLED));
    cli.api.add(grouped(4, JobState.RUNNING));
    cli.api.add(retry(grouped(5, JobState.FAILED), 1));
    cli.api.add(grouped(6, JobState.INTERRUPTED));
  }

  private static Job grouped(long id, JobState s) {
    return Jobs.job(id, s, Jobs.spec(1, null, "sweep", null, "x"));
  }

  private static Job retry(Job j, long root) {
    return new Job(j.id(), j.spec(), j.state(), j.submitTime(), j.startTime(), j.endTime(), j.gpus(), j.identity(),
        j.exitCode(), j.logPath(), j.failureReason(), j.tag(), root);
  }

  @Test
  void groupFailedSelectsTheLatestFailedAttempts() {
    cli.api.nextRetry = new RetryReport(List.of(new Retried(5, 7)), List.of(), List.of("sweep"));
    Cli.Result r = cli.run("retry", "--group", "sweep", "--failed");
    assertEquals(0, r.code(), r.err());
    assertEquals(List.of("retry [5] [FAILED] --group sweep"), cli.api.retries);
    assertEquals("Retried 1 job: 5->7\nReleased the hold on group sweep; its waiting jobs may start.\n", r.out());
  }

  @Test
  void groupAloneSelectsEveryRetryableLatestAttempt() {
    cli.run("retry", "--group", "sweep");
    assertEquals(List.of("retry [3, 5, 6] [] --group sweep"), cli.api.retries);
  }

  @Test
  void aGroupAloneSelectsExactlyTheStatesTheDaemonRetries() {
    Cli c = new Cli(dir);
    long id = 1;
    for (JobState s : JobState.values()) c.api.add(grouped(id++, s));
    c.run("retry", "--group", "sweep");
    List<Long> want = new ArrayList<>();
    for (JobState s : JobState.values()) if (Retries.RETRYABLE.contains(s)) want.add((long) s.ordinal() + 1);
    assertEquals(List.of("retry " + want + " [] --group sweep"), c.api.retries);
  }

  @Test
  void namedJobsAreAllSentSoTheDaemonCanSayWhy() {
    cli.api.nextRetry = new RetryReport(List.of(new Retried(3, 8)), List.of(
        new RetrySkip(2, "job 2 is DONE; only FAILED, CANCELLED, INTERRUPTED or TIMEOUT jobs are retried"),
        new RetrySkip(99, "job 99 does not exist")), List.of());
    Cli.Result r = cli.run("retry", "2-3", "99");
    assertEquals(List.of("retry [2, 3, 99] []"), cli.api.retries);
    assertEquals("""
        Retried 1 job: 3->8
        Skipped 2 jobs:
          2: is DONE; only FAILED, CANCELLED, INTERRUPTED or TIMEOUT jobs are retried
          99: does not exist
        """, r.out());
  }

  @Test
  void longListsAreCut() {
    List<Retried> many = new ArrayList<>();
    for (long i = 1; i <= 14; i++) many.add(new Retried(i, 100 + i));
    cli.api.nextRetry = new RetryReport(many, List.of(), List.of());
    String out = cli.run("retry", "1-14").out();
    assertEquals("Retried 14 jobs: 1->101, 2->102, 3->103, 4->104, 5->105, 6->106, 7->107, 8->108, 9->109, 10->110,"
        + " 11->111, 12->112, and 2 more\n", out);
  }

  @Test
  void nothingMatchingSaysSoAndNothingSelectedIsAUsageError() {
    cli.api.nextRetry = new RetryReport(List.of(), List.of(), List.of());
    assertEquals("No timed-out jobs match.\n", cli.run("retry", "--group", "sweep", "--timed-out").out());
    assertEquals(List.of("retry [] [TIMEOUT] --group sweep"), cli.api.retries, "the daemon still hears of the group");
    assertEquals("No failed jobs match.\n", cli.run("retry", "99", "--failed").out());
    Cli.Result r = cli.run("retry");
    assertEquals(2, r.code());
    assertEquals("gq: say what to retry: job ids or ranges (216-218), or --group GROUP\nTry 'gq retry --help'.\n", r.err());
  }

  @Test
  void aGroupWhoseFailedCellsWereSubmittedAgainIsReleasedWithNothingToRetry() {
    cli.api.nextRetry = new RetryReport(List.of(), List.of(), List.of("sweep"));
    Cli.Result r = cli.run("retry", "--group", "sweep", "--timed-out");
    assertEquals(0, r.code(), r.err());
    assertEquals("No timed-out jobs match.\nReleased the hold on group sweep; its waiting jobs may start.\n", r.out());
  }

  @Test
  void aGroupTheUserHeldStaysHeldAndTheCommandSaysHowToReleaseIt() {
    cli.api.groupList = List.of(new GqApi.GroupSummary("sweep", Map.of(JobState.WAITING, 2), 0, "held by the user", false));
    Cli.Result r = cli.run("retry", "--group", "sweep", "--timed-out");
    assertEquals("No timed-out jobs match.\n"
        + "Group sweep is still held: held by the user; release it with 'gq release --group sweep'.\n", r.out());
  }

  @Test
  void recoverRetriesInterruptedJobs() {
    cli.api.nextRetry = new RetryReport(List.of(new Retried(6, 9)), List.of(), List.of());
    assertEquals("Retried 1 job: 6->9\n", cli.run("recover").out());
    assertEquals(List.of("recover"), cli.api.retries);
    cli.api.nextRetry = new RetryReport(List.of(), List.of(), List.of());
    assertEquals("No interrupted jobs to retry.\n", cli.run("recover").out());
  }
}

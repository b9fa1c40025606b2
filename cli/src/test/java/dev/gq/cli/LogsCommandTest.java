package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiReplies;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogsCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private Job withLog(Job j, Path log) {
    return new Job(j.id(), j.spec(), j.state(), j.submitTime(), j.startTime(), j.endTime(), j.gpus(), j.identity(),
        j.exitCode(), log.toString(), j.failureReason(), j.tag(), j.retryOf());
  }

  @Test
  void printsTheWholeLog() throws Exception {
    Path log = Files.writeString(dir.resolve("1.log"), "epoch 1\nepoch 2 ✓\n");
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), log));
    Cli.Result r = cli.run("logs", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("epoch 1\nepoch 2 ✓\n", r.out());
  }

  @Test
  void binaryAndLatin1BytesArePassedThroughExactly() throws Exception {
    byte[] bytes = new byte[200_016];
    for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (i * 31 + (i >> 8));
    bytes[bytes.length - 2] = (byte) 0xe2; // a character cut short at the end stays as it is
    bytes[bytes.length - 1] = (byte) 0x9c;
    Path log = Files.write(dir.resolve("1.log"), bytes);
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), log));
    assertEquals(0, cli.run("logs", "1").code());
    assertArrayEquals(bytes, cli.io.rawBytes.toByteArray());
  }

  @Test
  void waitingJobHasNoLogYet() {
    cli.api.add(withLog(Jobs.job(1, JobState.WAITING), dir.resolve("missing.log")));
    Cli.Result r = cli.run("logs", "1");
    assertEquals(0, r.code());
    assertEquals("", r.out() + r.err());
  }

  @Test
  void waitingJobSaysOnATerminalWhatItWaitsFor() {
    cli.io.stderrTty = true;
    cli.api.add(withLog(Jobs.job(1, JobState.WAITING), dir.resolve("missing.log")));
    cli.api.waits.put(1L, new WaitReason.GroupHeld("g", "held by the user"));
    Cli.Result r = cli.run("logs", "1");
    assertEquals(0, r.code());
    assertEquals("", r.out());
    assertEquals("gq: job 1 is WAITING: group g is held: held by the user; it has no log yet\n", r.err());
  }

  @Test
  void aWaitingJobOfAHeldGroupIsHeldAsGqPsSaysIt() {
    cli.io.stderrTty = true;
    cli.api.add(withLog(Jobs.job(1, JobState.WAITING, Jobs.spec(1, null, "g", null, "true")), dir.resolve("missing.log")));
    cli.api.groupList = java.util.List.of(new ApiReplies.GroupSummary("g", java.util.Map.of(JobState.WAITING, 1), 0,
        "held by the user", false));
    cli.api.waits.put(1L, new WaitReason.GroupHeld("g", "held by the user"));
    Cli.Result r = cli.run("logs", "1");
    assertEquals("gq: job 1 is HELD: group g is held: held by the user; it has no log yet\n", r.err());
  }

  @Test
  void missingLogOfAJobThatRanIsRefused() {
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), dir.resolve("gone.log")));
    Cli.Result r = cli.run("logs", "1");
    assertEquals(1, r.code());
    assertEquals("gq: job 1 has no log at " + dir.resolve("gone.log") + "; it may have been deleted\n", r.err());
  }

  @Test
  void unknownJobIsRefused() {
    Cli.Result r = cli.run("logs", "5");
    assertEquals(1, r.code());
    assertEquals("gq: job 5 does not exist\n", r.err());
  }

  @Test
  void followPrintsNewOutputAndStopsWhenTheJobEnds() throws Exception {
    Path log = dir.resolve("1.log");
    Job running = withLog(Jobs.job(1, JobState.RUNNING), log);
    Job done = withLog(Jobs.job(1, JobState.DONE), log);
    cli.api.add(running);
    cli.api.jobReplies.add(running);
    cli.api.jobReplies.add(running);
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("logs", "-f", "1"));
    Files.writeString(log, "line 1\n");
    while (cli.api.jobReplies.size() > 1) Thread.onSpinWait();
    byte[] split = "é\n".getBytes(StandardCharsets.UTF_8);
    Files.write(log, new byte[] {'l', 'i', 'n', 'e', ' ', '2', split[0]}, java.nio.file.StandardOpenOption.APPEND);
    Files.write(log, new byte[] {split[1], split[2]}, java.nio.file.StandardOpenOption.APPEND);
    cli.api.jobReplies.add(done);
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(0, r.code(), r.err());
    assertEquals("line 1\nline 2é\n", r.out());
    assertArrayEquals("line 1\nline 2é\n".getBytes(StandardCharsets.UTF_8), cli.io.rawBytes.toByteArray());
  }

  @Test
  void followStopsWhenTheCallerGoesAway() throws Exception {
    cli.api.add(withLog(Jobs.job(1, JobState.RUNNING), dir.resolve("1.log")));
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("logs", "--follow", "1"));
    while (cli.api.jobCalls < 2) Thread.onSpinWait();
    cli.io.closed = true;
    assertEquals(0, follow.get(10, TimeUnit.SECONDS).code());
  }

  @Test
  void followOfAJobDeletedMeanwhileIsRefused() throws Exception {
    cli.api.add(withLog(Jobs.job(1, JobState.RUNNING), dir.resolve("1.log")));
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("logs", "-f", "1"));
    while (cli.api.jobCalls < 2) Thread.onSpinWait();
    cli.api.jobs.clear();
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(1, r.code());
    assertTrue(r.err().contains("job 1 was deleted while its log was followed"), r.err());
  }

  @Test
  void lastLinesCountsLikeTail() throws Exception {
    Path log = Files.writeString(dir.resolve("1.log"), "a\nb\nc\nd\n");
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), log));
    assertEquals("c\nd\n", cli.run("logs", "-n", "2", "1").out());
    assertEquals("a\nb\nc\nd\n", cli.run("logs", "--lines", "9", "1").out());
    assertEquals("", cli.run("logs", "-n", "0", "1").out());
    Files.writeString(log, "a\n\nb\nno newline");
    assertEquals("b\nno newline", cli.run("logs", "-n", "2", "1").out());
    assertEquals("\nb\nno newline", cli.run("logs", "-n", "3", "1").out());
  }

  @Test
  void lastLinesOfALogLongerThanOneReadBlock() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 30_000; i++) text.append("line ").append(i).append('\n');
    Path log = Files.writeString(dir.resolve("1.log"), text);
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), log));
    Cli.Result r = cli.run("logs", "-n", "12000", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals(text.substring(text.indexOf("line 18000\n")), r.out());
  }

  @Test
  void negativeLineCountIsAUsageError() throws Exception {
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), Files.writeString(dir.resolve("1.log"), "x\n")));
    Cli.Result r = cli.run("logs", "-n", "-3", "1");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: -n/--lines must be 0 or more, not -3\n"), r.err());
  }

  @Test
  void withoutAnIdTheNewestJobsLogIsPrintedAndNamedOnlyOnATerminal() throws Exception {
    cli.api.add(withLog(Jobs.job(1, JobState.DONE), Files.writeString(dir.resolve("1.log"), "old\n")));
    cli.api.add(withLog(Jobs.job(2, JobState.DONE), Files.writeString(dir.resolve("2.log"), "one\ntwo\n")));
    Cli.Result piped = cli.run("logs", "-n", "1");
    assertEquals(0, piped.code(), piped.err());
    assertEquals("two\n", piped.out());
    assertEquals("", piped.err());
    cli.io.stderrTty = true;
    Cli.Result shown = cli.run("logs");
    assertEquals("one\ntwo\n", shown.out());
    assertEquals("gq: job 2 (python, DONE), the newest\n", shown.err());
  }

  @Test
  void withoutAnIdAndNoJobsItSaysSo() {
    Cli.Result r = cli.run("logs");
    assertEquals(1, r.code());
    assertEquals("gq: there are no jobs yet; queue one with 'gq submit SCRIPT' or 'gq run COMMAND'\n", r.err());
  }

  @Test
  void followWithLastLinesStartsThereThenFollows() throws Exception {
    Path log = Files.writeString(dir.resolve("1.log"), "a\nb\nc\n");
    Job running = withLog(Jobs.job(1, JobState.RUNNING), log);
    cli.api.add(running);
    cli.api.jobReplies.add(running);
    cli.api.jobReplies.add(running);
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("logs", "-f", "-n", "1", "1"));
    while (!cli.api.jobReplies.isEmpty()) Thread.onSpinWait();
    Files.writeString(log, "d\n", java.nio.file.StandardOpenOption.APPEND);
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.DONE), log));
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(0, r.code(), r.err());
    assertEquals("c\nd\n", r.out());
  }

  @Test
  void followOfAWaitingJobSaysOnATerminalWhatItWaitsForAndWhenItStarts() throws Exception {
    cli.io.stderrTty = true;
    Path log = dir.resolve("1.log");
    Job waiting = withLog(Jobs.job(1, JobState.WAITING), log);
    cli.api.add(waiting);
    cli.api.waits.put(1L, new WaitReason.GpusBusy(1, 0, List.of(FakeApi.holder(0, GpuState.RUNNING, 4L))));
    cli.api.jobReplies.add(waiting);
    cli.api.jobReplies.add(waiting);
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("logs", "-f", "1"));
    while (cli.api.jobReplies.size() > 1) Thread.onSpinWait();
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.RUNNING), log));
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.RUNNING), log));
    Files.writeString(log, "epoch 1\n");
    while (cli.api.jobReplies.size() > 0) Thread.onSpinWait();
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.DONE), log));
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(0, r.code(), r.err());
    assertEquals("epoch 1\n", r.out());
    assertEquals("gq: job 1 is WAITING: needs 1 GPU, 0 free (GPU 0: job 4); the log starts when it runs\n"
        + "gq: job 1 started on GPU 0\n", r.err());
  }

  @Test
  void followOfAWaitingJobSaysNothingWhenStderrIsNotATerminal() throws Exception {
    Path log = dir.resolve("1.log");
    Job waiting = withLog(Jobs.job(1, JobState.WAITING), log);
    cli.api.add(waiting);
    cli.api.waits.put(1L, new WaitReason.GpusBusy(1, 0, List.of()));
    cli.api.jobReplies.add(waiting);
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.RUNNING), log));
    cli.api.jobReplies.add(withLog(Jobs.job(1, JobState.DONE), log));
    Cli.Result r = cli.run("logs", "-f", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out() + r.err());
    assertEquals(0, cli.api.waitReasonCalls);
  }
}

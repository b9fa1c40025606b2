package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreemptResumeCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  @Test
  void preemptSendsWhatWasAskedWithTermAndTwoMinutesByDefault() {
    Cli.Result r = cli.run("preempt", "12");
    assertEquals(0, r.code(), r.toString());
    assertEquals("job 12: preempting\n", r.out());
    var ask = cli.api.preempts.get(0);
    assertEquals(List.of(12L), ask.ids());
    assertEquals(15, ask.signal());
    assertEquals(Duration.ofMinutes(2), ask.grace());
    assertEquals(null, ask.forJob());
    cli.run("preempt", "3-4", "--signal", "sigusr1", "--grace", "30s", "--for", "9", "--requeue", "--group-signal");
    var second = cli.api.preempts.get(1);
    assertEquals(List.of(3L, 4L), second.ids());
    assertEquals(10, second.signal());
    assertEquals(Duration.ofSeconds(30), second.grace());
    assertEquals(9L, second.forJob());
    assertTrue(second.requeue() && second.group());
  }

  @Test
  void badInputIsOneLineAndSendsNothing() throws Exception {
    Cli.Result kill = cli.run("preempt", "12", "--signal", "KILL");
    assertEquals(2, kill.code());
    assertTrue(kill.err().startsWith("gq: invalid --signal 'KILL'; use TERM, INT, USR1 or USR2\n"), kill.err());
    assertEquals(2, cli.run("preempt", "12", "--grace", "0s").code());
    assertEquals(2, cli.run("preempt", "12", "--for", "x").code());
    assertEquals(2, cli.run("preempt", "abc").code());
    assertEquals(2, cli.run("preempt").code());
    assertTrue(cli.api.preempts.isEmpty());
    Cli.Result missing = cli.run("resume", "12", "--from", "nowhere");
    assertEquals(2, missing.code());
    assertTrue(missing.err().startsWith("gq: --from nowhere: no such checkpoint"), missing.err());
    Path fifo = dir.resolve("fifo");
    new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
    Cli.Result special = cli.run("resume", "12", "--from", "fifo");
    assertEquals(2, special.code());
    assertTrue(special.err().startsWith("gq: --from fifo is not a checkpoint (a directory or a file)"), special.err());
    assertTrue(cli.api.resumes.isEmpty());
  }

  @Test
  void resumeSaysWhatEachAttemptResumesFrom() throws Exception {
    Path ckpt = Files.createDirectories(dir.resolve("checkpoint-7"));
    Cli.Result r = cli.run("resume", "12");
    assertEquals("Job 12 resumes as job 112, from scratch: no complete checkpoint under /w yet.\n", r.out());
    Cli.Result from = cli.run("resume", "12", "--from", ckpt.toString(), "--json");
    assertEquals(ckpt.toString(), JsonSchemas.parse(from.out()).get("resumed").get(0).get("from").asText());
    JsonSchemas.check("resume.schema.json", JsonSchemas.parse(from.out()));
    JsonSchemas.check("preempt.schema.json", JsonSchemas.parse(cli.run("preempt", "5", "--json").out()));
  }

  @Test
  void resumingOnlyJobsThatCannotBeResumedSaysWhyAndExitsOne() {
    cli.api.unresumable.put(12L, "job 12 is RUNNING; only ended jobs are resumed");
    Cli.Result r = cli.run("resume", "12");
    assertEquals(1, r.code(), r.toString());
    assertEquals("Skipped 1 job:\n  12: is RUNNING; only ended jobs are resumed\n", r.out());
    assertEquals(0, cli.run("resume", "12", "13").code(), "one of them resumed");
  }
}

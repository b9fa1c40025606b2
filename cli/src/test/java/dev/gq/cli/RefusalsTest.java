package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Values that would do something else than asked are usage errors (exit 2), each one line naming the value. */
class RefusalsTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private String usage(String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals("", r.out());
    return r.err().lines().findFirst().orElse("");
  }

  @Test
  void resumeFromAnEmptyPathIsRefusedNotTheWorkingDirectory() {
    assertEquals("gq: --from needs a checkpoint's path; leave it out to resume from the newest", usage("resume", "3", "--from", ""));
    assertEquals("gq: --from needs a checkpoint's path; leave it out to resume from the newest", usage("resume", "3", "--from", " "));
    assertEquals(List.of(), cli.api.resumes);
  }

  @Test
  void aWebhookOnAPortPast65535IsRefused() {
    String err = usage("notify", "add", "webhook", "http://127.0.0.1:99999/x");
    assertTrue(err.startsWith("gq: invalid webhook URL http://127.0.0.1:99999/…: port 99999 is not 1 to 65535"), err);
  }

  @Test
  void maxRunningOutOfRangeIsAUsageErrorBothWays() {
    assertEquals("gq: --max-running must be between 1 and 10000, not 10001", usage("run", "--group", "g", "--max-running", "10001", "ls"));
    assertEquals("gq: --max-running must be between 1 and 10000, not 0", usage("run", "--group", "g", "--max-running", "0", "ls"));
    assertEquals("gq: --max-running must be between 1 and 10000, not 10001 (--no-max-running lifts the cap)",
        usage("groups", "g", "--max-running", "10001"));
    assertEquals("gq: --max-running must be between 1 and 10000, not 0 (--no-max-running lifts the cap)",
        usage("groups", "g", "--max-running", "0"));
    assertEquals(List.of(), cli.api.submitted);
  }

  @Test
  void holdAndReleaseTakeRangesLikeTheOtherCommands() {
    assertEquals(0, cli.run("hold", "3-4").code());
    assertEquals(0, cli.run("release", "3,5-6").code());
    assertEquals(List.of("hold:[3, 4]", "release:[3, 5, 6]"), cli.api.queueHolds);
    assertEquals("gq: invalid job id or range 'x'; use a number like 12 or 300-440", usage("hold", "x"));
  }

  @Test
  void aWordWhereANumberBelongsIsSaidInGqsWords() {
    assertEquals("gq: invalid job id 'x'; use a number like 12", usage("modify", "x", "--priority", "1"));
    assertEquals("gq: invalid job id '99999999999999999999'; use a number like 12", usage("modify", "99999999999999999999", "--gpus", "1"));
    assertEquals("gq: --priority takes a whole number, not 'x'", usage("modify", "3", "--priority", "x"));
    assertEquals("gq: --gpus takes a whole number, not 'x'", usage("-g", "x", "ls"));
    assertEquals("gq: --lines takes a whole number, not 'x'", usage("logs", "-n", "x", "3"));
    assertEquals("gq: --max-running takes a whole number, not 'x'", usage("groups", "g", "--max-running", "x"));
    assertEquals("gq: invalid PID 'x'; use a whole number", usage("adopt", "x"));
    assertEquals("gq: unknown state 'foo'; states: WAITING, STARTING, RUNNING, CANCELLING, DONE, FAILED, CANCELLED, ORPHANED,"
        + " INTERRUPTED, TIMEOUT, PREEMPTING, PREEMPTED, EXITED (or squeue's PD, R, CG, CD, F, CA, TO, PR)",
        usage("ps", "--state", "foo"));
  }
}

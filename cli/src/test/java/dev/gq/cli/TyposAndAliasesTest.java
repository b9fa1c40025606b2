package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TyposAndAliasesTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private void usageError(String err, String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals(err, r.err());
    assertEquals("", r.out());
  }

  @Test
  void aMistypedCommandNamesTheCommandMeant() {
    usageError("gq: unknown command 'sumbit'; did you mean 'submit'?\nTry 'gq --help'.\n", "sumbit", "x.sh");
    usageError("gq: unknown command 'cancle'; did you mean 'cancel'?\nTry 'gq --help'.\n", "cancle", "3");
    usageError("gq: unknown command 'stauts'; did you mean 'status'?\nTry 'gq daemon --help'.\n", "daemon", "stauts");
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void aMistypedOptionNamesTheOptionMeant() {
    usageError("gq: unknown option '--gpu'; did you mean '--gpus'?\nTry 'gq run --help'.\n", "run", "--gpu", "2", "x");
    usageError("gq: unknown option '--gpu'; did you mean '--gpus'?\nTry 'gq --help'.\n", "--gpu", "2", "x");
    usageError("gq: unknown option '--grup'; did you mean '--group'?\nTry 'gq submit --help'.\n", "submit", "--grup=a", "x.sh");
    usageError("gq: unknown option '--frobnicate'\nTry 'gq ps --help'.\n", "ps", "--frobnicate");
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void aProgramTypedWithoutRunSaysHowToQueueIt() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String name : List.of("trainer", "ln")) {
      Files.writeString(bin.resolve(name), "#!/bin/sh\n");
      Files.setPosixFilePermissions(bin.resolve(name), PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    cli.io.env.put("PATH", bin.toString());
    usageError("gq: unknown command 'trainer'; to queue it as a job: 'gq run trainer ...' or 'gq -g N trainer ...'\n"
        + "Try 'gq --help'.\n", "trainer", "--lr", "3");
    usageError("gq: unknown command 'ln'; did you mean 'ls'? (to queue the program: 'gq run ln ...' or 'gq -g N ln ...')\n"
        + "Try 'gq --help'.\n", "ln", "-s", "a", "b");
    usageError("gq: unknown command 'bin/trainer'; to queue it as a job: 'gq run bin/trainer ...' or 'gq -g N bin/trainer ...'\n"
        + "Try 'gq --help'.\n", "bin/trainer");
    usageError("gq: unknown command 'frobnicate'\nTry 'gq --help'.\n", "frobnicate");
  }

  @Test
  void wordsFromOtherQueuesPointToTheGqCommand() {
    usageError("gq: unknown command 'follow'; to follow a job's output: 'gq logs -f JOB'\nTry 'gq --help'.\n", "follow", "3");
    usageError("gq: unknown command 'add'; to queue a command: 'gq run CMD...' or 'gq -g N CMD...'\nTry 'gq --help'.\n",
        "add", "python", "x.py");
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void aliasesRunTheirCommand() {
    cli.api.add(Jobs.job(4, dev.gq.core.job.JobState.RUNNING, Jobs.spec("train")));
    cli.api.now = java.time.Instant.parse("2026-06-01T00:00:00Z"); // the same ELAPSED in every listing
    String ps = cli.run("ps").out();
    for (String alias : List.of("ls", "list", "status")) {
      Cli.Result r = cli.run(alias);
      assertEquals(0, r.code(), alias + ": " + r.err());
      assertEquals(ps, r.out(), alias);
    }
    Cli.Result log = cli.run("log", "--help");
    assertEquals(0, log.code());
    assertEquals(cli.run("logs", "--help").out(), log.out());
    assertEquals(0, cli.run("kill", "4").code());
    assertEquals(List.of(List.of(4L)), cli.api.cancels);
  }

  @Test
  void helpListsTheAliasesBesideTheirCommand() {
    String help = cli.run("--help").out();
    assertTrue(help.contains("\n  ps, ls, list, status "), help);
    assertTrue(help.contains("\n  logs, log "), help);
    assertTrue(help.contains("\n  cancel, kill "), help);
  }
}

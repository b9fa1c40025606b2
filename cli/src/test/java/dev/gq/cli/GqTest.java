package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GqTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  @Test
  void version() {
    Cli.Result r = cli.run("--version");
    assertEquals(0, r.code());
    assertEquals("gq " + dev.gq.protocol.Release.VERSION + "\n", r.out());
  }

  @Test
  void helpListsEveryCommand() {
    Cli.Result r = cli.run("--help");
    assertEquals(0, r.code());
    for (String c : List.of("run", "submit", "ps", "show", "logs", "gpu", "cancel", "events", "daemon")) {
      assertTrue(r.out().contains("\n  " + c + " ") || r.out().contains("\n  " + c + ", "), c + " in\n" + r.out());
    }
    assertTrue(r.out().contains("gq -g N CMD..."), r.out());
  }

  @Test
  void everyCommandHasHelp() {
    for (String c : List.of("run", "submit", "ps", "show", "logs", "gpu", "cancel", "events", "daemon")) {
      Cli.Result r = cli.run(c, "--help");
      assertEquals(0, r.code(), c);
      assertTrue(r.out().startsWith("Usage: gq " + c), r.out());
    }
    assertTrue(cli.run("daemon", "--help").out().contains("status"));
    assertTrue(cli.run("help", "ps").out().startsWith("Usage: gq ps"));
  }

  @Test
  void noCommandIsAUsageError() {
    Cli.Result r = cli.run();
    assertEquals(2, r.code());
    assertEquals("gq: a command is required; 'gq --help' lists them\nTry 'gq --help'.\n", r.err());
  }

  @Test
  void unknownCommandIsAUsageError() {
    Cli.Result r = cli.run("frobnicate");
    assertEquals(2, r.code());
    assertEquals("gq: unknown command 'frobnicate'\nTry 'gq --help'.\n", r.err());
  }

  @Test
  void extraArgumentIsAUsageError() {
    Cli.Result r = cli.run("show", "1", "2");
    assertEquals(2, r.code());
    assertEquals("gq: unexpected argument '2'\nTry 'gq show --help'.\n", r.err());
  }

  @Test
  void internalErrorIsOneLineWithoutVerbose() {
    cli.api.crashWith = () -> new IllegalStateException("boom");
    Cli.Result r = cli.run("ps");
    assertEquals(1, r.code());
    assertEquals("gq: internal error: java.lang.IllegalStateException: boom; see the daemon log\n", r.err());
  }

  @Test
  void verboseAddsTheStackTrace() {
    cli.api.crashWith = () -> new IllegalStateException("boom");
    Cli.Result r = cli.run("ps", "--verbose");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: internal error: java.lang.IllegalStateException: boom; see the daemon log\n"));
    assertTrue(r.err().contains("\tat "), r.err());
    assertTrue(cli.run("--verbose", "ps").err().contains("\tat "));
  }

  @Test
  void verboseInsideAJobCommandIsTheJobs() {
    cli.api.crashWith = () -> new IllegalStateException("boom");
    assertFalse(cli.run("-g", "1", "x", "--verbose").err().contains("\tat "));
  }

  @Test
  void shortcutAfterVerbose() {
    assertEquals(0, cli.run("--verbose", "-g", "2", "x").code());
    assertEquals(2, cli.api.submitted.get(0).gpus());
    assertEquals(List.of("x"), cli.api.submitted.get(0).argv());
  }

  @Test
  void concurrentRunsShareNothing() throws Exception {
    List<java.util.concurrent.Callable<String>> tasks = new java.util.ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int gpus = t;
      tasks.add(() -> {
        Cli own = new Cli(dir);
        for (int i = 0; i < 25; i++) own.run("-g", String.valueOf(gpus), "job" + gpus);
        return own.api.submitted.stream().map(s -> s.gpus() + s.argv().get(0)).distinct().toList().toString();
      });
    }
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      var results = pool.invokeAll(tasks);
      for (int t = 0; t < 4; t++) assertEquals("[" + t + "job" + t + "]", results.get(t).get());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void runsAreIndependent() {
    assertEquals(2, cli.run("ps", "--limit", "x").code());
    assertEquals(0, cli.run("ps").code());
    assertEquals(0, cli.run("ps").code(), "no state is left over from an earlier run");
  }
}

package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --after, --after-ok, --retries and --time on run and submit, and their #gq directives. */
class SchedulingOptionsTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private JobSpec onlySubmitted() {
    assertEquals(1, cli.api.submitted.size(), "one submit expected");
    return cli.api.submitted.get(0);
  }

  @Test
  void runSendsDependenciesRetriesAndTimeLimit() {
    Cli.Result r = cli.run("run", "--after", "3", "--after", "4,5", "--after-ok", "6", "--retries", "2", "--time", "1h30m",
        "python", "x.py");
    assertEquals(0, r.code(), r.err());
    JobSpec s = onlySubmitted();
    assertEquals(List.of(new Dependency(3, false), new Dependency(4, false), new Dependency(5, false), new Dependency(6, true)),
        s.after());
    assertEquals(2, s.retries());
    assertEquals(Duration.ofMinutes(90), s.timeLimit());
  }

  @Test
  void withoutThemNothingIsAsked() {
    cli.run("-g", "1", "x");
    JobSpec s = onlySubmitted();
    assertEquals(List.of(), s.after());
    assertEquals(0, s.retries());
    assertNull(s.timeLimit());
  }

  @Test
  void theShortcutTakesThemToo() {
    cli.run("-g", "1", "--time", "2h", "--after-ok", "9", "x", "--time", "3h");
    JobSpec s = onlySubmitted();
    assertEquals(Duration.ofHours(2), s.timeLimit());
    assertEquals(List.of("x", "--time", "3h"), s.argv());
  }

  @Test
  void badDurationsAreOneLineUsageErrors() {
    for (String bad : new String[] {"1.5h", "14", "-1d", "14y"}) {
      Cli.Result r = cli.run("run", "--time", bad, "x");
      assertEquals(2, r.code(), bad);
      assertEquals("gq: invalid duration '" + bad + "' for --time; use a count and a unit such as 30m, 2h, 3d\n"
          + "Try 'gq run --help'.\n", r.err());
    }
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void badDependencyAndRetryCountAreUsageErrors() {
    assertEquals("gq: invalid job id 'x' for --after; use a job number like 12\n", firstLine(cli.run("run", "--after", "x", "y")));
    assertEquals("gq: invalid job id '0' for --after-ok; use a job number like 12\n", firstLine(cli.run("run", "--after-ok", "0", "y")));
    assertEquals("gq: --retries must be between 0 and 100, not 101\n", firstLine(cli.run("run", "--retries", "101", "y")));
    assertEquals(2, cli.run("run", "--retries", "-1", "y").code());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void emptyBlankLongAndControlLabelsAreRefusedOneLineEach() {
    assertEquals("gq: --group must not be empty\n", firstLine(cli.run("run", "--group", "", "x")));
    assertEquals("gq: --key must not be blank\n", firstLine(cli.run("run", "--key", " \t", "x")));
    assertEquals("gq: --group must be at most 200 characters (it has 201)\n", firstLine(cli.run("run", "--group", "g".repeat(201), "x")));
    assertEquals("gq: --key must not contain control characters (U+000A at character 2)\n", firstLine(cli.run("run", "--key", "a\nb", "x")));
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void scriptDirectivesSetThemAndTheCommandLineWins() throws Exception {
    Path script = dir.resolve("job.sh");
    Files.writeString(script, "#!/bin/bash\n#gq --time=2h\n#gq --after=12\n#gq --retries=1\necho hi\n");
    assertEquals(0, cli.run("submit", script.toString()).code());
    assertEquals(0, cli.run("submit", "--time", "30m", "--after-ok", "13", script.toString()).code());
    JobSpec fromScript = cli.api.submitted.get(0);
    assertEquals(Duration.ofHours(2), fromScript.timeLimit());
    assertEquals(List.of(new Dependency(12, false)), fromScript.after());
    assertEquals(1, fromScript.retries());
    JobSpec overridden = cli.api.submitted.get(1);
    assertEquals(Duration.ofMinutes(30), overridden.timeLimit());
    assertEquals(List.of(new Dependency(13, true)), overridden.after());
    assertEquals(1, overridden.retries());
  }

  @Test
  void badDirectiveDurationNamesItsLine() throws Exception {
    Path script = dir.resolve("job.sh");
    Files.writeString(script, "#!/bin/bash\n#gq --time=14\n");
    Cli.Result r = cli.run("submit", script.toString());
    assertEquals(1, r.code());
    assertEquals("gq: invalid duration '14' on line 2; use a count and a unit such as 30m, 2h, 3d\n", r.err());
  }

  private static String firstLine(Cli.Result r) {
    return r.err().lines().findFirst().orElse("") + "\n";
  }
}

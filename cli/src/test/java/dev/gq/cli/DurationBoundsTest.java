package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every duration and date a command takes is bounded where it is typed: one line naming the option
 * and its bound, exit 2 (1 for a script's or a batch file's line), and nothing sent to the daemon.
 */
class DurationBoundsTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.now = Instant.parse("2026-12-01T12:00:00Z");
    cli.io.env.put("TZ", "UTC");
  }

  private String usage(String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals("", r.out());
    return r.err().lines().findFirst().orElse("");
  }

  @Test
  void howLongsAreAtMost365Days() throws Exception {
    Files.writeString(dir.resolve("x.sh"), "#!/bin/bash\ntrue\n");
    assertEquals("gq: --time must be at most 365 days, not '999999w'", usage("-g", "0", "--time", "999999w", "ls"));
    assertEquals("gq: --time must be at most 365 days, not '366d'", usage("submit", "--time", "366d", "x.sh"));
    assertEquals("gq: --time must be at most 365 days, not '53w'", usage("modify", "3", "--time", "53w"));
    assertEquals("gq: --timeout must be at most 365 days, not '999999999w'", usage("wait", "3", "--timeout", "999999999w"));
    assertEquals("gq: --grace must be at most 365 days, not '9999d'", usage("preempt", "3", "--grace", "9999d"));
    assertEquals("gq: --min-runtime must be at most 365 days, not '999999w'",
        usage("notify", "add", "desktop", "--min-runtime", "999999w"));
    assertEquals(List.of(), cli.api.submitted);
    assertEquals(0, cli.run("-g", "0", "--time", "365d", "ls").code(), "the bound itself is fine");
    assertEquals(java.time.Duration.ofDays(365), cli.api.submitted.get(0).timeLimit());
  }

  @Test
  void agesAreAtMost36500DaysAndSinceIsFrom1970ToTheYear9999() {
    assertEquals("gq: --older-than must be at most 36,500 days, not '999999999w'", usage("clean", "--older-than", "999999999w", "--yes"));
    assertEquals("gq: --since must be between 1970-01-01 and 9999-12-31, not '999999999d'", usage("events", "--since", "999999999d"));
    assertEquals("gq: --since must be between 1970-01-01 and 9999-12-31, not '+999999999-01-01T00:00Z'",
        usage("events", "--since", "+999999999-01-01T00:00Z"));
    assertEquals("gq: --since must be between 1970-01-01 and 9999-12-31, not '1969-12-31T00:00Z'",
        usage("events", "--since", "1969-12-31T00:00Z"));
    assertEquals(0, cli.run("events", "--since", "2999-01-01").code(), "a future time matches nothing yet");
    assertEquals(0, cli.run("events", "--since", "1970-01-01").code());
  }

  @Test
  void aStartIsWithin365DaysOfNow() {
    assertEquals("gq: --begin must be within 365 days of now, not '999999999w'", usage("-g", "0", "--begin", "999999999w", "ls"));
    assertEquals("gq: --begin must be within 365 days of now, not '2028-01-01T00:00'", usage("-g", "0", "--begin", "2028-01-01T00:00", "ls"));
    assertEquals("gq: --begin must be within 365 days of now, not '+999999999-01-01T00:00Z'",
        usage("-g", "0", "--begin", "+999999999-01-01T00:00Z", "ls"));
    assertEquals("gq: --begin must be within 365 days of now, not '1900-01-01T00:00'", usage("-g", "0", "--begin", "1900-01-01T00:00", "ls"));
    assertEquals(List.of(), cli.api.submitted);
    assertEquals(0, cli.run("-g", "0", "--begin", "2027-06-01T00:00", "ls").code());
    assertEquals(Instant.parse("2027-06-01T00:00:00Z"), cli.api.submitted.get(0).begin());
  }

  @Test
  void aScriptsOrABatchLinesTimeLimitIsBoundedToo() throws Exception {
    Files.writeString(dir.resolve("t.sh"), "#!/bin/bash\n#gq --time=999999w\ntrue\n");
    Cli.Result r = cli.run("submit", "t.sh");
    assertEquals(ExitCode.FAILED, r.code(), r.err());
    assertEquals("gq: the time limit must be at most 365 days, not '999999w' (line 2)\n", r.err());
    Files.writeString(dir.resolve("jobs.txt"), "{\"argv\": [\"true\"], \"time\": \"999999w\"}\n");
    Cli.Result b = cli.run("submit", "--batch", "jobs.txt");
    assertTrue(b.code() != 0 && b.err().contains("'time' must be at most 365 days, not '999999w'"), b.err());
    assertEquals(List.of(), cli.api.submitted);
    assertTrue(cli.api.batches.isEmpty());
  }
}

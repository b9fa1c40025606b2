package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq ps} with nothing to show: prose for a person on a terminal, and nothing on stdout for a
 * script ({@code gq cancel -y $(gq ps -t R,PD --no-header -o id)}), the prose on stderr.
 */
class PsEmptyTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.env.put("NO_COLOR", "1");
    cli.api.add(Jobs.job(1, JobState.DONE));
  }

  @Test
  void noHeaderOrFormatKeepsStdoutEmptyAndSaysWhyOnStderr() {
    for (String[] argv : new String[][] {{"ps", "-t", "R", "--no-header", "-o", "id"}, {"ps", "-t", "R", "--no-header"},
        {"ps", "-t", "R", "-o", "id"}}) {
      Cli.Result r = cli.run(argv);
      assertEquals(0, r.code(), String.join(" ", argv));
      assertEquals("", r.out(), String.join(" ", argv));
      assertEquals("No jobs.\nNone match these filters; 'gq ps --all' lists every job.\n", r.err(), String.join(" ", argv));
    }
  }

  @Test
  void stdoutThatIsNotATerminalStaysEmpty() {
    cli.io.stdoutTty = false;
    Cli.Result r = cli.run("ps", "-t", "R");
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("No jobs.\n"), r.err());
  }

  @Test
  void aPersonAtATerminalReadsItOnStdout() {
    Cli.Result r = cli.run("ps", "-t", "R");
    assertEquals("No jobs.\nNone match these filters; 'gq ps --all' lists every job.\n", r.out());
    assertEquals("", r.err());
  }
}

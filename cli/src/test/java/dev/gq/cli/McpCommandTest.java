package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gq mcp} is the launcher's: the daemon lists it in help and refuses to run it in one line. */
class McpCommandTest {
  @TempDir Path dir;

  @Test
  void mcpThatReachesTheDaemonSaysToRunItWithTheLauncher() {
    Cli.Result r = new Cli(dir).run("mcp");
    assertEquals(1, r.code());
    assertEquals("gq: 'gq mcp' is started by the gq launcher, not by the daemon; run it as 'gq mcp' with the gq"
        + " command (bin/gq in a checkout, or the installed gq)\n", r.err());
  }

  @Test
  void helpListsMcp() {
    assertTrue(new Cli(dir).run("--help").out().contains("  mcp "), "gq --help names gq mcp");
  }
}

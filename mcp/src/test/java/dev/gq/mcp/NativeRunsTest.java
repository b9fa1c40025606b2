package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM server runs each command through the gq command the launcher names (here a script that
 * says what it was given), with its output, errors and exit code captured, and never a terminal or
 * an input for the daemon to prompt on.
 */
class NativeRunsTest {
  @TempDir Path tmp;

  private Path client() throws Exception {
    Path gq = tmp.resolve("gq");
    Files.writeString(gq, """
        #!/bin/sh
        echo "args: $*"
        echo "cwd: $(pwd)"
        echo "tty: $GQ_CLIENT_TTY_IN$GQ_CLIENT_TTY_OUT$GQ_CLIENT_TTY_ERR stdin closed: $GQ_CLIENT_STDIN_CLOSED"
        echo "gone: ${GQ_CLIENT_CWD_GONE-unset} client: ${GQ_CLIENT_CMD-unset} kept: $KEPT"
        echo "input: $(cat)"
        echo "gq: an error" >&2
        exit 3
        """);
    Files.setPosixFilePermissions(gq, PosixFilePermissions.fromString("rwx------"));
    return gq;
  }

  @Test
  void aCommandRunsThroughTheNamedClientWithItsOutputCaptured() throws Exception {
    Path gq = client();
    Path dir = Files.createDirectory(tmp.resolve("work"));
    GqRunner runner = new NativeRuns(Map.of(NativeRuns.CLIENT_VARIABLE, gq.toString(), "KEPT", "yes",
        "GQ_CLIENT_CWD_GONE", "/stale"));
    GqRunner.Outcome o = runner.run(List.of("ps", "--json"), dir.toString());
    assertEquals(3, o.exitCode());
    assertEquals("""
        args: ps --json
        cwd: %s
        tty: 000 stdin closed: 1
        gone: unset client: unset kept: yes
        input:\s
        """.formatted(dir.toRealPath()), o.stdout());
    assertEquals("gq: an error\n", o.stderr());
  }

  @Test
  void aWorkingDirectoryThatIsGoneIsPassedAsTheOneItWas() throws Exception {
    Path gq = client();
    GqRunner.Outcome o = new NativeRuns(Map.of(NativeRuns.CLIENT_VARIABLE, gq.toString()))
        .run(List.of("run", "true"), tmp.resolve("gone").toString());
    assertTrue(o.stdout().contains("cwd: /\n"), o.stdout());
    assertTrue(o.stdout().contains("gone: " + tmp.resolve("gone") + " client"), o.stdout());
  }

  @Test
  void withoutTheClientEachCommandSaysHowToStartTheServer() {
    GqRunner.Outcome o = new NativeRuns(Map.of()).run(List.of("ps"), tmp.toString());
    assertEquals(1, o.exitCode());
    assertEquals("gq: GQ_CLIENT_CMD does not name the gq command that runs each tool's command; start the server with 'gq mcp'\n", o.stderr());
  }
}

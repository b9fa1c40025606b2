package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real client's {@code gq wait} and {@code gq logs -f} outlive {@code gq daemon restart}. */
class ReconnectEndToEndTest {
  @TempDir Path tmp;

  @Test
  void waitAndFollowedLogsCarryOnAcrossADaemonRestart() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = ClientEndToEndTest.daemonScript(g);
      assertEquals(1, g.submit("-g", "0", "bash", "-c", "for i in 1 2 3 4 5 6; do echo tick $i; sleep 1; done"));
      Process waiting = client(g, script, "wait", "1");
      Process following = client(g, script, "logs", "-f", "1");
      Gqd.await("the log to be followed", Duration.ofSeconds(60), () -> read(g, following, "out").contains("tick 1"));
      // a restart before 'gq wait' has connected would test nothing: it would simply connect later
      Gqd.await("gq wait to connect", Duration.ofSeconds(60), () -> connected(waiting));
      // the restart as 'gq daemon restart' does it, with the harness's patience for a slow start
      g.stopDaemon();
      try {
        g.startDaemon();
      } catch (AssertionError e) {
        // the reconnecting clients may have started the new daemon first, as any gq command does;
        // it holds the lock from its first moment, and answers once it has started
        if (!e.getMessage().contains("already running")) throw e;
        Gqd.await("the daemon a reconnecting client started", Duration.ofSeconds(90), g::ping);
      }
      assertTrue(waiting.waitFor(90, TimeUnit.SECONDS), "wait still runs");
      assertTrue(following.waitFor(90, TimeUnit.SECONDS), "logs -f still runs");
      assertEquals(0, waiting.exitValue(), read(g, waiting, "err"));
      assertEquals("Job 1 ended DONE (exit code 0)\n", read(g, waiting, "out"));
      assertTrue(read(g, waiting, "err").contains("reconnecting"), read(g, waiting, "err"));
      assertEquals(0, following.exitValue(), read(g, following, "err"));
      assertEquals("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\n", read(g, following, "out"));
    }
  }

  /** The client as a process of its own, its output in files named after its pid. */
  static Process client(Gqd g, Path daemonScript, String... argv) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(NativeClient.binary().toString()));
    cmd.addAll(List.of(argv));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(g.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(g.env());
    pb.environment().put("GQ_DAEMON_CMD", daemonScript.toString());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Path out = Files.createTempFile(g.root, "client", ".out");
    pb.redirectOutput(out.toFile()).redirectError(g.root.resolve(out.getFileName() + ".err").toFile());
    Process p = pb.start();
    Files.move(out, g.root.resolve("c" + p.pid() + ".out"));
    Files.move(g.root.resolve(out.getFileName() + ".err"), g.root.resolve("c" + p.pid() + ".err"));
    return p;
  }

  /** Whether the client process holds a socket (it opens none but its connection to the daemon). */
  static boolean connected(Process p) {
    try (var fds = Files.list(Path.of("/proc", String.valueOf(p.pid()), "fd"))) {
      return fds.anyMatch(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().startsWith("socket:");
        } catch (Exception e) {
          return false;
        }
      });
    } catch (Exception e) {
      return false;
    }
  }

  static String read(Gqd g, Process p, String stream) {
    try {
      return Files.readString(g.root.resolve("c" + p.pid() + "." + stream), StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "";
    }
  }
}

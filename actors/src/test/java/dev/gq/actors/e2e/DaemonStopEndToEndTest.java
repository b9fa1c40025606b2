package dev.gq.actors.e2e;

import static dev.gq.actors.e2e.ReconnectEndToEndTest.client;
import static dev.gq.actors.e2e.ReconnectEndToEndTest.connected;
import static dev.gq.actors.e2e.ReconnectEndToEndTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq daemon restart} and {@code gq daemon stop} with the real client and the real daemon:
 * a restart leaves a running daemon whatever clients were connected and however much the old one
 * had to write before it let go of its lock, and a stop returns once the daemon has exited.
 */
class DaemonStopEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  @TempDir Path tmp;

  @Test
  void restartWithAWaitConnectedLeavesARunningDaemonThatTheWaiterReconnectsTo() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = ClientEndToEndTest.daemonScript(g);
      Path go = g.root.resolve("go");
      long job = g.submit("-g", "0", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 3");
      g.awaitState(job, "RUNNING", T);
      Process waiting = client(g, script, "wait", String.valueOf(job));
      Gqd.await("gq wait to connect", T, () -> connected(waiting));
      long old = g.process().pid();

      Process restart = client(g, script, "daemon", "restart");
      assertTrue(restart.waitFor(90, TimeUnit.SECONDS), "restart returned");
      assertEquals(0, restart.exitValue(), read(g, restart, "err") + "\n" + g.daemonLog());
      String said = read(g, restart, "out");
      assertTrue(said.matches("daemon stopping; running jobs keep running\ngq daemon started \\(pid \\d+\\)\n"), said);
      long now = Long.parseLong(said.substring(said.lastIndexOf("pid ") + 4, said.lastIndexOf(')')));
      assertNotEquals(old, now);
      assertTrue(g.ping(), "a daemon answers");

      Files.createFile(go);
      assertTrue(waiting.waitFor(90, TimeUnit.SECONDS), "gq wait still runs");
      assertEquals(3, waiting.exitValue(), read(g, waiting, "err"));
      assertEquals("Job " + job + " ended FAILED (exit code 3)\n", read(g, waiting, "out"));
      assertTrue(read(g, waiting, "err").contains("reconnecting"), read(g, waiting, "err"));
    }
  }

  @Test
  void restartAfterCancellingManyWaitingJobsLeavesARunningDaemon() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = ClientEndToEndTest.daemonScript(g);
      assertEquals(0, g.gq("hold", "--all").code());
      Path batch = g.work.resolve("jobs.txt");
      Files.writeString(batch, "true\n".repeat(10_000));
      Gqd.Result submitted = g.gq("submit", "--batch", batch.toString(), "-g", "0", "-q");
      assertEquals(0, submitted.code(), submitted.toString());
      Gqd.Result cancelled = g.gq("cancel", "--waiting", "-y");
      assertEquals(0, cancelled.code(), cancelled.toString());

      Process restart = client(g, script, "daemon", "restart");
      assertTrue(restart.waitFor(90, TimeUnit.SECONDS), "restart returned");
      assertEquals(0, restart.exitValue(), read(g, restart, "err") + "\n" + g.daemonLog());
      assertTrue(read(g, restart, "out").contains("gq daemon started (pid "), read(g, restart, "out"));
      assertTrue(g.ping(), "a daemon answers");
      assertEquals("CANCELLED", g.state(10_000));
    }
  }

  @Test
  void stopWithWaitReturnsOnlyOnceTheDaemonsProcessIsGone() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = ClientEndToEndTest.daemonScript(g);
      long job = g.submit("-g", "0", "sleep", "300");
      g.awaitState(job, "RUNNING", T);
      // a follower that keeps the daemon busy as it stops
      Process waiting = client(g, script, "wait", String.valueOf(job));
      Gqd.await("gq wait to connect", T, () -> connected(waiting));
      long pid = g.process().pid();

      Process stop = client(g, script, "daemon", "stop", "--wait");
      assertTrue(stop.waitFor(90, TimeUnit.SECONDS), "stop returned");
      boolean gone = !running(pid);
      assertEquals(0, stop.exitValue(), read(g, stop, "err"));
      assertEquals("daemon stopping; running jobs keep running\n", read(g, stop, "out"));
      assertTrue(gone, "the daemon's process is gone when stop returns: " + stat(pid) + "\n" + g.daemonLog());
      waiting.destroyForcibly();
    }
  }

  private static String stat(long pid) {
    try {
      return Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    } catch (Exception e) {
      return "no /proc entry: " + e;
    }
  }

  /** Whether the process exists and has not ended (this test's own child stays a zombie until reaped). */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (Exception e) {
      return false;
    }
  }
}

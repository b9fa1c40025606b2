package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq top} in a real terminal outlives {@code gq daemon restart}, as {@code gq wait} and
 * {@code gq logs -f} do: its screen stays, it draws the new daemon's jobs, and q still gives the
 * terminal back.
 */
class TopReconnectEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @Test
  void theLiveViewCarriesOnAcrossADaemonRestartAndQuitsCleanAfter() throws Exception {
    Assumptions.assumeTrue(Tmux.installed(), "tmux is not installed (apt-get install tmux); the full-screen test of gq top needs it");
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = ClientEndToEndTest.daemonScript(g);
      Tmux tmux = new Tmux(tmp.resolve("tmux.sock"));
      try {
        tmux.startTop(g, Map.of("GQ_DAEMON_CMD", script.toString()), 80, 24);
        long before = g.submit("-g", "1", "--name", "before-restart", "sleep", "300");
        tmux.awaitScreen("the job before the restart", s -> s.contains("before-restart"));

        g.stopDaemon();
        try {
          g.startDaemon();
        } catch (AssertionError e) {
          // a reconnecting client may have started the new daemon first, as any gq command does
          if (!e.getMessage().contains("already running")) throw e;
          Gqd.await("the daemon a reconnecting client started", Duration.ofSeconds(90), g::ping);
        }
        long after = g.submit("-g", "0", "--name", "after-restart", "sleep", "300");
        // the job is drawn as it is submitted (WAITING, STARTING): wait for the frame that shows it running
        String screen = tmux.awaitScreen("the new daemon's jobs on the same screen", s -> s.contains("after-restart")
            && s.contains("before-restart") && s.lines().anyMatch(l -> l.matches(after + " +RUNNING .*")));
        assertTrue(screen.contains("NAME / WHY") && !screen.contains("top exited"), screen);
        assertTrue(screen.lines().anyMatch(l -> l.matches(after + " +RUNNING .*")), screen);

        tmux.run("send-keys", "-t", "top", "q");
        String gone = tmux.awaitScreen("the terminal back", s -> s.contains("top exited 0") && s.contains("icanon"));
        assertTrue(gone.contains(" icanon") && !gone.contains("-icanon"), "the terminal is cooked again:\n" + gone);
        assertTrue(g.job(before).get("state").asText().equals("RUNNING"), "jobs outlive the restart");
      } finally {
        tmux.stop();
      }
    }
  }
}

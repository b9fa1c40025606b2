package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code gq top} at 80×24 with more running jobs than fit: when the job selected at the
 * start ends, the list does not follow it down among the ended jobs; the selection moves to the next
 * live job, so the running jobs at the top stay on screen, and the rows left out are counted.
 */
class TopLiveJobsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @Test
  void whenTheSelectedJobEndsTheRunningJobsStayOnScreen() throws Exception {
    Assumptions.assumeTrue(Tmux.installed(), "tmux is not installed (apt-get install tmux); the full-screen test of gq top needs it");
    try (Gqd g = Gqd.start(tmp, 2)) {
      List<Long> ended = new ArrayList<>();
      for (int i = 0; i < 15; i++) ended.add(g.submit("-g", "0", "true"));
      for (long id : ended) g.awaitState(id, "DONE", T);
      long first = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + tmp.resolve("end-first") + " ]; do sleep 0.1; done");
      List<Long> live = new ArrayList<>();
      for (int i = 0; i < 30; i++) live.add(g.submit("-g", "0", "sleep", "300"));
      long second = live.get(0);
      long third = live.get(1);
      g.awaitState(first, "RUNNING", T);
      for (long id : live) g.awaitState(id, "RUNNING", T);
      Tmux tmux = new Tmux(tmp.resolve("tmux.sock"));
      try {
        tmux.startTop(g, Map.of(), 80, 24);
        tmux.awaitScreen("the running jobs", s -> running(s, first) && running(s, second) && running(s, third));
        java.nio.file.Files.writeString(tmp.resolve("end-first"), "");
        g.awaitState(first, "DONE", T);
        String after = tmux.awaitScreen("the first job ended", s -> s.lines().anyMatch(l -> l.matches(first + " +DONE .*"))
            || !running(s, first));
        // the list follows the live jobs: both still running jobs are on the screen
        String screen = tmux.awaitScreen("the running jobs after the first ended", s -> running(s, second) && running(s, third));
        assertTrue(running(screen, second) && running(screen, third), after + "\n---\n" + screen);
        assertTrue(screen.contains("more"), "the rows left out are counted:\n" + screen);
      } finally {
        tmux.stop();
      }
    }
  }

  private static boolean running(String screen, long id) {
    return screen.lines().anyMatch(l -> l.matches(id + " +RUNNING .*"));
  }
}

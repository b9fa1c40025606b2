package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq top} as a user runs it: the native client in a real pseudo-terminal (tmux, on a server
 * of its own), reading the screen back. It shows a job once it starts and once it ends, follows a
 * job's log and comes back, redraws at the new size after a resize, cancels a job only after the y
 * to its question, and gives the terminal back when it quits.
 */
class TopEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  /** One tmux server on a socket of the test's own, so that nothing else's sessions are touched. */
  private record Tmux(Path socket) {
    String run(String... args) throws IOException, InterruptedException {
      List<String> cmd = new ArrayList<>(List.of("tmux", "-S", socket.toString()));
      cmd.addAll(List.of(args));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "tmux hung: " + cmd);
      assertEquals(0, p.exitValue(), "tmux " + String.join(" ", args) + ": " + out);
      return out;
    }

    String screen() throws IOException, InterruptedException {
      return run("capture-pane", "-p", "-t", "top");
    }

    String awaitScreen(String what, Predicate<String> cond) throws Exception {
      String[] last = {""};
      try {
        Gqd.await(what, T, () -> {
          try {
            last[0] = screen();
          } catch (Exception e) {
            throw new AssertionError(e);
          }
          return cond.test(last[0]);
        });
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\nscreen:\n" + last[0], e);
      }
      return last[0];
    }
  }

  private static boolean hasTmux() {
    try {
      return new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Test
  void showsJobsStartingAndEndingRedrawsOnResizeAndCancelsOnlyAfterYes() throws Exception {
    Assumptions.assumeTrue(hasTmux(), "tmux is not installed (apt-get install tmux); the full-screen test of gq top needs it");
    try (Gqd g = Gqd.start(tmp, 2)) {
      Tmux tmux = new Tmux(tmp.resolve("tmux.sock"));
      StringBuilder cmd = new StringBuilder("cd ").append(quote(g.work.toString())).append(" && env");
      for (Map.Entry<String, String> e : g.env().entrySet()) cmd.append(' ').append(quote(e.getKey() + "=" + e.getValue()));
      cmd.append(" TERM=xterm-256color ").append(quote(NativeClient.binary().toString()))
          .append(" top; echo \"top exited $?\"; stty -a | grep -o ' -*icanon'; sleep 600");
      try {
        tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "top", "-x", "80", "-y", "24", "bash", "--norc", "-c", cmd.toString());
        String first = tmux.awaitScreen("the first screen", s -> s.contains("gq top") && s.contains("2 GPUs, 2 free"));
        assertEquals(24, first.split("\n", -1).length - 1, first);
        assertTrue(first.contains("no jobs yet"), first);

        long job = g.submit("-g", "1", "bash", "-c", "echo hello from the job; sleep 300");
        g.awaitState(job, "RUNNING", T);
        tmux.awaitScreen("the running job", s -> s.lines().anyMatch(l -> l.matches(job + " +RUNNING +\\d.*"))
            && s.lines().anyMatch(l -> l.matches("\\d +RUNNING +job " + job + "\\b.*")));

        // Enter follows the selected job's log; q comes back to the list
        tmux.run("send-keys", "-t", "top", "Enter");
        tmux.awaitScreen("the job's log", s -> s.contains("log of job " + job) && s.contains("hello from the job"));
        tmux.run("send-keys", "-t", "top", "q");
        tmux.awaitScreen("the list again", s -> s.contains("NAME / WHY"));

        long quick = g.submit("-g", "1", "true");
        g.awaitState(quick, "DONE", T);
        tmux.awaitScreen("the ended job", s -> s.lines().anyMatch(l -> l.matches(quick + " +DONE .*")));

        tmux.run("resize-window", "-t", "top", "-x", "200", "-y", "50");
        String wide = tmux.awaitScreen("the screen at 200x50", s -> s.lines().anyMatch(l -> l.contains("TYPE")
            && l.contains("UTIL HISTORY")) && s.contains("Fake GPU 0"));
        assertEquals(50, wide.split("\n", -1).length - 1, wide);
        assertTrue(wide.lines().anyMatch(l -> l.matches(job + " +RUNNING .*")), wide);
        assertTrue(wide.lines().anyMatch(l -> l.endsWith("q quit")), "the keys line is at the bottom of the new size:\n" + wide);

        // the running job is listed first and selected; c asks, n changes nothing, y cancels
        tmux.run("send-keys", "-t", "top", "c");
        tmux.awaitScreen("the question", s -> s.contains("Cancel job " + job + " (bash)? [y/N]"));
        tmux.run("send-keys", "-t", "top", "n");
        tmux.awaitScreen("nothing changed", s -> s.contains("nothing changed"));
        assertEquals("RUNNING", g.job(job).get("state").asText());
        tmux.run("send-keys", "-t", "top", "c");
        tmux.awaitScreen("the question again", s -> s.contains("Cancel job " + job + " (bash)? [y/N]"));
        tmux.run("send-keys", "-t", "top", "y");
        g.awaitState(job, "CANCELLED", T);
        tmux.awaitScreen("the cancelled job", s -> s.lines().anyMatch(l -> l.matches(job + " +CANCELLED .*")));

        tmux.run("resize-window", "-t", "top", "-x", "80", "-y", "24");
        String narrow = tmux.awaitScreen("the screen at 80x24 again", s -> s.split("\n", -1).length - 1 == 24
            && !s.contains("TYPE") && s.lines().anyMatch(l -> l.matches(job + " +CANCELLED .*")));
        assertTrue(narrow.lines().reduce((a, b) -> b).orElse("").startsWith("job " + job + ": "),
            "the last line says what the cancel did:\n" + narrow);
        assertTrue(narrow.lines().allMatch(l -> l.length() <= 80), narrow);

        tmux.run("send-keys", "-t", "top", "q");
        String after = tmux.awaitScreen("the terminal back", s -> s.contains("top exited 0"));
        assertTrue(after.contains(" icanon") && !after.contains("-icanon"), "the terminal is cooked again:\n" + after);
        assertFalse(after.contains("gq top "), "the alternate screen is gone:\n" + after);
      } finally {
        try {
          tmux.run("kill-server");
        } catch (AssertionError | IOException e) {
          // the server may have gone already
        }
      }
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One tmux server on a socket of the test's own, so that nothing else's sessions are touched: the
 * native client's {@code gq top} in a real pseudo-terminal, its screen read back as text.
 */
record Tmux(Path socket) {
  private static final Duration T = Duration.ofSeconds(60);

  static boolean installed() {
    try {
      return new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  String run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tmux", "-S", socket.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "tmux hung: " + cmd);
    assertEquals(0, p.exitValue(), "tmux " + String.join(" ", args) + ": " + out);
    return out;
  }

  /**
   * Runs {@code gq top} in session "top" at the size given, in the daemon's environment and
   * {@code env}; once it exits, the shell says its exit code and whether the terminal is cooked again.
   */
  void startTop(Gqd g, Map<String, String> env, int width, int height) throws Exception {
    Map<String, String> all = new HashMap<>(g.env());
    all.putAll(env);
    StringBuilder cmd = new StringBuilder("cd ").append(quote(g.work.toString())).append(" && env");
    for (Map.Entry<String, String> e : all.entrySet()) cmd.append(' ').append(quote(e.getKey() + "=" + e.getValue()));
    cmd.append(" TERM=xterm-256color ").append(quote(NativeClient.binary().toString()))
        .append(" top; echo \"top exited $?\"; stty -a | grep -o ' -*icanon'; sleep 600");
    run("-f", "/dev/null", "new-session", "-d", "-s", "top", "-x", String.valueOf(width), "-y", String.valueOf(height),
        "bash", "--norc", "-c", cmd.toString());
  }

  void stop() {
    try {
      run("kill-server");
    } catch (AssertionError | IOException | InterruptedException e) {
      // the server may have gone already
    }
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

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}

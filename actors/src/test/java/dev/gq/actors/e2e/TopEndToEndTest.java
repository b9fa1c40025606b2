package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.MemoryText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
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

  @Test
  void showsJobsStartingAndEndingRedrawsOnResizeAndCancelsOnlyAfterYes() throws Exception {
    Assumptions.assumeTrue(Tmux.installed(), "tmux is not installed (apt-get install tmux); the full-screen test of gq top needs it");
    try (Gqd g = Gqd.start(tmp, 2)) {
      Tmux tmux = new Tmux(tmp.resolve("tmux.sock"));
      try {
        tmux.startTop(g, Map.of(), 80, 24);
        String first = tmux.awaitScreen("the first screen", s -> s.contains("gq top") && s.contains("2 GPUs, 2 free"));
        assertEquals(24, first.split("\n", -1).length - 1, first);
        assertTrue(first.contains("no jobs yet"), first);
        // figures written to the fake folder appear on the live screen at the next readings
        write(g.fake.resolve("figures").resolve(Gqd.uuid(0)), "util=37 temp=61 power=210 power_limit=700\n");
        tmux.awaitScreen("GPU 0's figures", s -> s.lines().anyMatch(l -> l.matches("0 +FREE +37% .* 61C +210W .*")));

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
            && s.contains("HOLDER         UTIL") && s.lines().anyMatch(l -> l.matches(job + " +CANCELLED .*")));
        assertTrue(narrow.lines().reduce((a, b) -> b).orElse("").startsWith("job " + job + ": "),
            "the last line says what the cancel did:\n" + narrow);
        assertTrue(narrow.lines().allMatch(l -> l.length() <= 80), narrow);

        tmux.run("send-keys", "-t", "top", "q");
        // the stty line comes after the exit line: wait for both
        String after = tmux.awaitScreen("the terminal back", s -> s.contains("top exited 0") && s.contains("icanon"));
        assertTrue(after.contains(" icanon") && !after.contains("-icanon"), "the terminal is cooked again:\n" + after);
        assertFalse(after.contains("gq top "), "the alternate screen is gone:\n" + after);
      } finally {
        tmux.stop();
      }
    }
  }

  // a job that opens a "context" of 1000 MiB on each of its GPUs in the fake folder, notes its pid, and runs until ./stop
  private static final String GPU_JOB = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 1000 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done;"
      + " echo $$ > pid-$GQ_JOB_ID; while [ ! -e stop ]; do sleep 0.1; done";

  private static void write(Path file, String text) throws IOException {
    java.nio.file.Files.createDirectories(file.getParent());
    Path tmpFile = file.resolveSibling(file.getFileName() + ".tmp");
    java.nio.file.Files.writeString(tmpFile, text);
    java.nio.file.Files.move(tmpFile, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static int gpuOf(Gqd g, long job) {
    return g.job(job).get("gpu_indices").get(0).asInt();
  }

  /** {@code gq top}'s one screen as text, once it shows what {@code cond} asks for. */
  private static String awaitTop(Gqd g, String what, Predicate<String> cond) throws InterruptedException {
    String[] last = {""};
    try {
      Gqd.await(what, T, () -> cond.test(last[0] = g.gq("top").out()));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\nscreen:\n" + last[0], e);
    }
    return last[0];
  }

  private static String row(String screen, String start) {
    return screen.lines().filter(l -> l.startsWith(start)).findFirst().orElse("");
  }

  /**
   * One screen as text ({@code gq top > file}) on three fake 80 GB cards whose figures are written to
   * the fake folder: the figures and a filling sparkline, a SHARED card with each shared job's share
   * and process, an exclusive job marked idle while its card shows 0 %, and a card with Xid 79 DRAINED
   * with its problem.
   */
  @Test
  void showsFiguresSharesIdleJobsAndUnwellGpusFromTheFakeFolder() throws Exception {
    try (Gqd g = Gqd.start(tmp, 3, Map.of("GQ_IDLE_AFTER_SECONDS", "1"))) {
      write(g.fake.resolve("gpus"), "0 " + Gqd.uuid(0) + " 81920 Fake H100\n1 " + Gqd.uuid(1) + " 81920 Fake H100\n2 "
          + Gqd.uuid(2) + " 81920 Fake H100\n");
      write(g.fake.resolve("figures").resolve(Gqd.uuid(0)), "util=37 mem_util=12 temp=61 power=210 power_limit=700\n");
      write(g.fake.resolve("figures").resolve(Gqd.uuid(1)), "util=0 temp=41 power=90\n");
      write(g.fake.resolve("figures").resolve(Gqd.uuid(2)), "util=0 temp=35 power=60\n");
      Gqd.await("the 80 GB cards and their figures", T, () -> g.gpus().get(0).get("total_memory").asLong() == 81920L << 20
          && g.gpus().get(0).get("util_percent").asInt(-1) == 37);

      // the sparkline fills as readings come, at the level of the figure
      String first = awaitTop(g, "a few readings in the history", s -> row(s, "0 ").contains("▃▃▃▃▃"));
      String zero = row(first, "0 ");
      assertTrue(zero.matches("0 +FREE +37% +[\\d.]+/80\\.0G +61C +210/700W +Fake H100 +▃+ *"), first);
      assertTrue(row(first, "1 ").contains("41C") && row(first, "1 ").contains("90W"), first);

      // an unwell card: Xid 79 drains it, with its problem under it
      write(g.fake.resolve("health").resolve(Gqd.uuid(2)), "xid 79\n");
      Gqd.await("GPU 2 drained", T, () -> g.gpuState(2).equals("DRAINED"));

      long a = g.submit("-g", "1", "--share", "--vram", "20G", "--name", "eval-a", "bash", "-c", GPU_JOB);
      g.awaitState(a, "RUNNING", T);
      long b = g.submit("-g", "1", "--share", "--vram", "20G", "--name", "eval-b", "bash", "-c", GPU_JOB);
      g.awaitState(b, "RUNNING", T);
      int shared = gpuOf(g, a);
      assertEquals(shared, gpuOf(g, b), "two shared jobs share one card");
      long excl = g.submit("-g", "1", "--name", "train", "bash", "-c", GPU_JOB);
      g.awaitState(excl, "RUNNING", T);
      int mine = gpuOf(g, excl);
      assertNotEquals(shared, mine);
      // the shared card works, the exclusive job's card shows 0 %: that job is idle
      write(g.fake.resolve("figures").resolve(Gqd.uuid(shared)), "util=90 temp=70 power=400 power_limit=700\n");
      write(g.fake.resolve("figures").resolve(Gqd.uuid(mine)), "util=0 temp=41 power=90\n");
      String pa = java.nio.file.Files.readString(g.work.resolve("pid-" + a)).strip();
      String pb = java.nio.file.Files.readString(g.work.resolve("pid-" + b)).strip();

      String left = MemoryText.brief(81920 - 1024 - 2 * 19074);
      String screen = awaitTop(g, "the shares, the idle job and the unwell card", s -> s.contains("jobs " + a + " (18.6G), " + b
          + " (18.6G); " + left + " left") && s.contains("(idle ") && s.contains("70C")
          && s.lines().anyMatch(l -> l.matches("\\s+pid " + pb + " +job " + b + " .*")));
      String sharedRow = row(screen, shared + " ");
      assertTrue(sharedRow.matches(shared + " +SHARED +jobs " + a + "," + b + " +90% +[\\d.]+/80\\.0G +70C +400/700W .*"), screen);
      assertTrue(screen.lines().anyMatch(l -> l.matches("\\s+pid " + pa + " +job " + a + " +1\\.0G +eval-a")), screen);
      assertTrue(screen.lines().anyMatch(l -> l.matches("\\s+pid " + pb + " +job " + b + " +1\\.0G +eval-b")), screen);
      assertTrue(row(screen, mine + " ").matches(mine + " +RUNNING +job " + excl + " +0% .*"), screen);
      assertTrue(screen.lines().anyMatch(l -> l.matches(excl + " +RUNNING .*train  \\(idle \\d+[smh].*\\)")), screen);
      assertTrue(screen.lines().noneMatch(l -> l.matches(a + " +RUNNING .*\\(idle.*")), "a working shared job is not idle:\n" + screen);
      assertTrue(row(screen, "2 ").matches("2 +DRAINED +unwell .*"), screen);
      assertTrue(screen.contains("    unwell: Xid 79: fell off the bus; 'gq gpu resume 2' gives it back"), screen);
      assertTrue(screen.contains(" 3 GPUs, 0 free ") && screen.contains("(fake GPUs)"), screen);

      // a job using more than it declared is marked over
      write(g.fake.resolve("procs").resolve(Gqd.uuid(shared)).resolve(pa), "30000");
      awaitTop(g, "job " + a + " over its share", s -> s.contains(a + " (18.6G, uses 29.3G: over)"));
      write(g.work.resolve("stop"), "");
      g.awaitState(excl, "DONE", T);
    }
  }
}

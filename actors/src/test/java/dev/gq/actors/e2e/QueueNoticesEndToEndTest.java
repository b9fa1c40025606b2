package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the real daemon: {@code gq logs} without an id and with {@code -n}; the notes a submit, a
 * batch and {@code gq wait} give about a held queue and a held group, and what
 * {@code gq daemon status} says of them.
 */
class QueueNoticesEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  @Test
  void logsWithoutAnIdIsTheNewestJobsAndDashNIsItsLastLines() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Gqd.Result none = g.gq("logs");
      assertEquals(1, none.code(), none.toString());
      assertEquals("gq: there are no jobs yet; queue one with 'gq submit SCRIPT' or 'gq run COMMAND'\n", none.err());
      long older = g.submit("-g", "0", "printf", "a\\nb\\nc\\n");
      g.awaitState(older, "DONE", T);
      long newest = g.submit("-g", "0", "bash", "-c", "for i in 1 2 3 4 5; do echo line $i; done; printf 'no newline'");
      g.awaitState(newest, "DONE", T);

      Gqd.Result all = g.gq("logs");
      assertEquals(0, all.code(), all.toString());
      assertEquals("line 1\nline 2\nline 3\nline 4\nline 5\nno newline", all.out());
      assertEquals("", all.err(), "a script's stderr stays quiet");
      assertEquals("line 5\nno newline", g.gq("logs", "-n", "2").out());
      assertEquals("c\n", g.gq("logs", "--lines", "1", String.valueOf(older)).out());
      assertEquals("line 5\nno newline", g.gq("logs", "-f", "-n", "2").out());

      g.stderrTty = true;
      Gqd.Result shown = g.gq("logs", "-n", "1");
      assertEquals("no newline", shown.out());
      assertEquals("gq: job " + newest + " (bash, DONE), the newest\n", shown.err());
    }
  }

  @Test
  void submitsIntoAHeldQueueOrAHeldGroupSaySoAndDaemonStatusNamesThem() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      assertEquals(0, g.gq("hold", "--all").code());
      Gqd.Result one = g.gq("run", "-g", "0", "true");
      assertEquals(0, one.code(), one.toString());
      assertEquals("Submitted job 1\n", one.out());
      assertEquals("gq: the queue is held, so job 1 waits until 'gq release --all'\n", one.err());

      assertEquals(0, g.gq("hold", "--group", "sweep").code());
      Files.writeString(g.work.resolve("jobs.txt"), "true\ntrue\n");
      Gqd.Result batch = g.gq("submit", "--batch", "jobs.txt", "-g", "0", "--group", "sweep");
      assertEquals(0, batch.code(), batch.toString());
      assertEquals("Submitted 2 jobs: 2-3\n", batch.out());
      assertEquals("gq: the queue is held and group sweep is held (held by the user), so jobs 2-3 wait until"
          + " 'gq release --all' and 'gq release --group sweep'\n", batch.err());

      String status = g.gq("daemon", "status").out();
      assertTrue(status.contains("\nQueue:     held; waiting jobs do not start until 'gq release --all'\n"), status);
      assertTrue(status.contains("\nHeld:      group sweep (held by the user); 'gq release --group sweep' releases it\n"), status);

      g.stderrTty = true;
      Gqd.Result waited = g.gq("wait", "1", "--timeout", "1s");
      assertEquals(124, waited.code(), waited.toString());
      assertTrue(waited.err().startsWith("gq: job 1 is WAITING: the queue is held; 'gq release --all' lets jobs start;"
          + " waiting for it to run and end\n"), waited.err());

      assertEquals(0, g.gq("release", "--all").code());
      g.awaitState(1, "DONE", T);
      Gqd.Result plain = g.gq("run", "-g", "0", "true");
      assertEquals("", plain.err(), "nothing holds a job of no group now");
      String after = g.gq("daemon", "status").out();
      assertFalse(after.contains("Queue:"), after);
      assertTrue(after.contains("Held:      group sweep"), after);
    }
  }
}

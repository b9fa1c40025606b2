package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon keeps no command of a waiting job in memory: after a restart (a replay of the
 * journal), jobs queued alone, in a batch (which stores its environment once) and as an
 * automatic retry (which shares its failed job's command) still run exactly their argv with their
 * environment, read back from the database at launch.
 */
class QueueMemoryEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  @TempDir Path tmp;

  @Test
  void queuedCommandsAreReadBackFromTheDatabaseAtLaunchAfterARestart() throws Exception {
    Map<String, String> env = Map.of("GQ_TEST_MARK", "from-the-environment");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, env)) {
      assertEquals(0, g.gq("hold", "--all").code());
      long single = g.submit("-g", "0", "bash", "-c", "echo single \"$GQ_TEST_MARK\"");
      Path batch = g.work.resolve("cells.txt");
      Files.writeString(batch, "bash -c 'echo cell-1 \"$GQ_TEST_MARK\"'\nbash -c 'echo cell-2 \"$GQ_TEST_MARK\"'\n");
      var submitted = g.gq("submit", "--batch", batch.toString(), "-g", "1");
      assertEquals(0, submitted.code(), submitted.toString());
      long retried = g.submit("-g", "0", "--retries", "1", "bash", "-c",
          "if [ -e again ]; then echo retry \"$GQ_TEST_MARK\"; else touch again; exit 3; fi");
      g.stopDaemon();
      g.startDaemon();
      assertEquals(0, g.gq("release", "--all").code());
      assertEquals("single from-the-environment\n", logOf(g, g.awaitState(single, "DONE", T).get("id").asLong()));
      assertEquals("cell-1 from-the-environment\n", logOf(g, g.awaitState(single + 1, "DONE", T).get("id").asLong()));
      assertEquals("cell-2 from-the-environment\n", logOf(g, g.awaitState(single + 2, "DONE", T).get("id").asLong()));
      assertEquals("FAILED", g.awaitState(retried, "FAILED", T).get("state").asText());
      long retry = retried + 1;
      var again = g.awaitState(retry, "DONE", T);
      assertEquals(retried, again.get("retry_of").asLong());
      assertTrue(again.get("argv").toString().contains("echo retry"), "the history shows the retry's whole command: " + again);
      assertEquals("retry from-the-environment\n", logOf(g, retry));
    }
  }

  private static String logOf(Gqd g, long id) {
    var r = g.gq("logs", String.valueOf(id));
    assertEquals(0, r.code(), r.toString());
    return r.out();
  }
}

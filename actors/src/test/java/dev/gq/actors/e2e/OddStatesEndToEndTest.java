package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs in odd states end with a clear reason in `gq show`, and nothing else is disturbed. */
class OddStatesEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);
  @TempDir static Path tmp;
  static Gqd g;

  @BeforeAll
  static void start() throws Exception {
    g = Gqd.start(tmp.resolve("d"), 1);
  }

  @AfterAll
  static void stop() throws Exception {
    g.close();
  }

  @Test
  void commandThatDoesNotExistFailsWithTheReason() throws Exception {
    long id = g.submit("-g", "0", "no-such-program-xyz", "--flag");
    JsonNode job = g.awaitState(id, "FAILED", T);
    assertEquals(127, job.get("exit_code").asInt());
    assertTrue(job.get("failure_reason").asText().contains("no-such-program-xyz"), job.toString());
    assertTrue(Jobs.log(g, id).contains("cannot run"), Jobs.log(g, id));
  }

  @Test
  void workingDirectoryThatVanishedBeforeLaunchFailsTheJobWithTheReason() throws Exception {
    Path dir = tmp.resolve("vanishing");
    Files.createDirectories(dir);
    long blocker = g.submit("-g", "1", "sleep", "2");
    long id = Long.parseLong(g.gqIn(dir, "-g", "1", "true").out().strip().replaceAll("\\D+", ""));
    Files.delete(dir);
    JsonNode job = g.awaitState(id, "FAILED", T);
    assertTrue(job.get("failure_reason").asText().contains(dir.toString()), job.toString());
    g.awaitState(blocker, "DONE", T);
  }

  @Test
  void jobWhoseChildrenOutliveItStaysRunningUntilTheyEnd() throws Exception {
    Path go = tmp.resolve("child-go");
    long id = g.submit("-g", "0", "bash", "-c", "(while [ ! -e " + go + " ]; do sleep 0.05; done) & exit 0");
    g.awaitState(id, "RUNNING", T);
    // the daemon saw the command exit and found the child it left
    String seen = "job " + id + ": its command exited; the job runs until the processes it left end";
    g.awaitLogged("the daemon to see the child outlive the command", T, () -> g.daemonLog().contains(seen));
    assertEquals("RUNNING", g.state(id), "a live child keeps the job running");
    Files.writeString(go, "");
    assertEquals(0, g.awaitState(id, "DONE", T).get("exit_code").asInt());
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs end, fail, are cancelled and outlive the daemon: real processes, real daemon. The tests that
 * restart no daemon share one ({@link SharedDaemons}).
 */
class LifecycleEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @RegisterExtension static final SharedDaemons SHARED = new SharedDaemons();

  @TempDir Path tmp;

  @Test
  void nonZeroExitIsRecordedWithItsCodeAndFreesTheGpu() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long bad = g.submit("-g", "1", "bash", "-c", Jobs.OPEN_CONTEXT + "exit 3");
    long next = g.submit("-g", "1", "true");
    JsonNode job = g.awaitState(bad, "FAILED", T);
    assertEquals(3, job.get("exit_code").asInt());
    assertTrue(job.get("failure_reason").asText().contains("3"), job.toString());
    g.awaitState(next, "DONE", T);
  }

  @Test
  void cancelEndsTheWholeProcessGroupBackgroundChildrenIncluded() throws Exception {
    Gqd g = SHARED.withGpus(1);
    Path pids = tmp.resolve("pids");
    long id = g.submit("-g", "1", "bash", "-c",
        "sleep 300 & echo $! >> " + pids + "; (sleep 300 & echo $! >> " + pids + "; wait) & echo $$ >> " + pids + "; wait");
    g.awaitState(id, "RUNNING", T);
    Gqd.await("three pids", T, () -> lines(pids) >= 3);
    assertEquals(0, g.gq("cancel", String.valueOf(id)).code());
    JsonNode job = g.awaitState(id, "CANCELLED", T);
    for (String pid : Files.readAllLines(pids)) assertFalse(running(pid.strip()), "process " + pid + " survived the cancel");
    assertEquals("FREE", g.gpuState(0));
    assertNotNull(job.get("end_time").asText());
  }

  @Test
  void cancelOfAJobThatIgnoresSigtermEscalatesToSigkill() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long id = g.submit("-g", "0", "bash", "-c", "trap '' TERM; echo ready; while true; do sleep 0.1; done");
    g.awaitState(id, "RUNNING", T);
    Gqd.await("the trap to be set", T, () -> logHas(g, id, "ready"));
    g.gq("cancel", String.valueOf(id));
    g.awaitState(id, "CANCELLED", T);
  }

  @Test
  void cancelOfAWaitingJobRemovesItFromTheQueue() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long first = g.submit("-g", "1", "sleep", "30");
    long second = g.submit("-g", "1", "true");
    g.awaitState(first, "RUNNING", T);
    assertEquals(0, g.gq("cancel", String.valueOf(second)).code());
    g.awaitState(second, "CANCELLED", T);
    g.gq("cancel", "-y", String.valueOf(first));
    g.awaitState(first, "CANCELLED", T);
  }

  @Test
  void daemonRestartLeavesARunningJobRunningAndItStillCompletes() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path go = tmp.resolve("go");
      long id = g.submit("-g", "1", "bash", "-c", Jobs.OPEN_CONTEXT + "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 7");
      long next = g.submit("-g", "1", "true");
      g.awaitState(id, "RUNNING", T);
      g.stopDaemon();
      g.startDaemon();
      assertEquals("RUNNING", g.state(id));
      assertEquals("WAITING", g.state(next));
      Files.writeString(go, "");
      JsonNode job = g.awaitState(id, "FAILED", T);
      assertEquals(7, job.get("exit_code").asInt(), "the real exit code survives the restart");
      g.awaitState(next, "DONE", T);
    }
  }

  @Test
  void jobThatEndsWhileTheDaemonIsDownGetsItsRealExitCode() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path go = tmp.resolve("go");
      long id = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 5");
      g.awaitState(id, "RUNNING", T);
      g.killDaemon();
      Files.writeString(go, "");
      Gqd.await("the exit file", T, () -> Files.exists(g.data.resolve("run/" + id + ".exit")));
      g.startDaemon();
      assertEquals(5, g.awaitState(id, "FAILED", T).get("exit_code").asInt());
    }
  }

  /** Alive and not a zombie (killed orphans may wait a moment for init to reap them). */
  private static boolean running(String pid) {
    try {
      String stat = Files.readString(Path.of("/proc", pid, "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static long lines(Path p) {
    try {
      return Files.exists(p) ? Files.readAllLines(p).size() : 0;
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  private static boolean logHas(Gqd g, long id, String text) {
    try {
      return Jobs.log(g, id).contains(text);
    } catch (java.io.IOException e) {
      return false;
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The periodic reconciliation pass concludes what no runner is there to see: real daemon, real jobs, fake GPUs. */
class ReconcileEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  /**
   * While the daemon is down the job's GPU disappears and the job is killed whole (its shim too, so
   * it leaves no exit status): start-up finds it ORPHANED with no process left to watch, so no
   * runner takes it, and only the periodic pass sees that nothing of it lives.
   */
  @Test
  void anOrphanedJobWithNothingLeftIsConcludedByThePeriodicPass() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_RECONCILE_INTERVAL_MS", "300"))) {
      long id = g.submit("-g", "1", "sleep", "600");
      JsonNode job = g.awaitState(id, "RUNNING", T);
      long pid = job.get("pid").asLong();
      long pgid = job.get("pgid").asLong();
      g.stopDaemon();
      Files.writeString(g.fake.resolve("gpus"), "# index uuid MiB name\n");
      Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).inheritIO().start();
      assertEquals(0, kill.waitFor());
      Gqd.await("the job's processes to end", T,
          () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true) || zombie(pid));
      assertFalse(Files.exists(g.data.resolve("run").resolve(id + ".exit")), "no exit status was written");
      g.startDaemon();
      JsonNode ended = g.awaitState(id, "INTERRUPTED", T);
      assertTrue(ended.get("failure_reason").asText().contains("no runner watched"), ended.toString());
      String events = g.gq("events", "--job", String.valueOf(id), "--json").out();
      assertTrue(events.contains("\"type\":\"JobOrphaned\""), "start-up left it ORPHANED: " + events);
    }
  }

  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (java.io.IOException e) {
      return true;
    }
  }
}

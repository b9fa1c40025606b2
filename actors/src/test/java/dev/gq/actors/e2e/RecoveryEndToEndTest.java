package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Crashes, restarts and reboots lose nothing: real daemon, real jobs, fake GPUs. */
class RecoveryEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  @Test
  void sigkillBetweenReservationAndLaunchNeitherLosesTheJobNorDoubleBooksItsGpu() throws Exception {
    Path ran = tmp.resolve("ran");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_TEST_LAUNCH_DELAY_MS", "1500"))) {
      long first = g.submit("-g", "1", "bash", "-c", "echo first >> " + ran + "; sleep 0.5");
      long second = g.submit("-g", "1", "bash", "-c", "echo second >> " + ran);
      g.awaitState(first, "STARTING", T);
      g.killDaemon();
      g.startDaemon();
      JsonNode a = g.awaitState(first, "DONE", T);
      JsonNode b = g.awaitState(second, "DONE", T);
      assertEquals(java.util.List.of("first", "second"), Files.readAllLines(ran), "each job ran exactly once, in turn");
      assertTrue(java.time.Instant.parse(a.get("end_time").asText())
          .isBefore(java.time.Instant.parse(b.get("start_time").asText()).plusMillis(1)), "no overlap on the one GPU");
    }
  }

  /**
   * The daemon dies after the shim started but before the launch was recorded, and the job ends
   * meanwhile: its exit record is all that is left, and the job shows the pid the record names.
   * The shim is run here by the test, as the daemon would have, on the job's own exit file.
   */
  @Test
  void aJobClosedFromItsExitRecordWithoutARecordedLaunchShowsTheShimsPid() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_TEST_LAUNCH_DELAY_MS", "1500"))) {
      long id = g.submit("-g", "1", "true");
      g.awaitState(id, "STARTING", T);
      g.killDaemon();
      Path shim = Path.of(System.getProperty("user.dir")).resolve("../host/target/gq-shim").normalize();
      Path exit = g.data.resolve("run").resolve(id + ".exit");
      Process p = new ProcessBuilder(shim.toString(), exit.toString(), "true")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
      assertTrue(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS));
      assertTrue(Files.readString(exit).contains("pid " + p.pid() + "\n"), Files.readString(exit));
      g.startDaemon();
      JsonNode job = g.awaitState(id, "DONE", T);
      assertEquals(p.pid(), job.get("pid").asLong(), job.toString());
      assertTrue(g.gq("show", String.valueOf(id)).out().contains(String.valueOf(p.pid())));
    }
  }

  @Test
  void changedBootIdMarksLiveJobsInterrupted() throws Exception {
    Path boot = tmp.resolve("boot_id");
    Files.writeString(boot, "11111111-aaaa\n");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_BOOT_ID_FILE", boot.toString()))) {
      long id = g.submit("-g", "1", "sleep", "60");
      g.awaitState(id, "RUNNING", T);
      g.stopDaemon();
      Files.writeString(boot, "22222222-bbbb\n");
      g.startDaemon();
      JsonNode job = g.awaitState(id, "INTERRUPTED", T);
      assertTrue(job.get("failure_reason").asText().contains("rebooted"), job.toString());
    }
  }

  @Test
  void sigtermStopsTheDaemonCleanlyAndLeavesJobsRunning() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long id = g.submit("-g", "1", "bash", "-c", "sleep 2; exit 4");
      g.awaitState(id, "RUNNING", T);
      long jobPid = g.job(id).get("pid").asLong();
      g.process().destroy();
      assertTrue(g.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
      assertFalse(Files.exists(g.run.resolve("gq.sock")), "socket removed");
      assertFalse(Files.exists(g.run.resolve("gq.pid")), "pid file removed");
      assertTrue(ProcessHandle.of(jobPid).map(ProcessHandle::isAlive).orElse(false), "the job survives the daemon");
      g.startDaemon();
      assertEquals(4, g.awaitState(id, "FAILED", T).get("exit_code").asInt());
    }
  }

  @Test
  void aJobThatEndsWhileTheDaemonIsStoppedEndsAtItsExitRecordsTimeNotTheRestarts() throws Exception {
    Path go = tmp.resolve("go");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long id = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 3");
      g.awaitState(id, "RUNNING", T);
      g.stopDaemon();
      Path exit = g.data.resolve("run").resolve(id + ".exit");
      Files.writeString(go, "");
      Gqd.await("the job's exit record", T, () -> Files.exists(exit));
      java.time.Instant written = Files.getLastModifiedTime(exit).toInstant();
      java.time.Instant restarted = java.time.Instant.now();
      g.startDaemon();
      g.awaitState(id, "FAILED", T);
      JsonNode job = g.gq("show", String.valueOf(id), "--json").json();
      assertEquals(3, job.get("exit_code").asInt(), job.toString());
      java.time.Instant end = java.time.Instant.parse(job.get("end_time").asText());
      assertEquals(written.toEpochMilli(), end.toEpochMilli(), 1, "the record's time: " + job);
      assertTrue(end.isBefore(restarted), "not the restart's time: " + job);
    }
  }

  @Test
  void heldQueueAndHeldGroupStayHeldAcrossARestart() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      assertEquals(0, g.gq("hold", "--all").code());
      assertEquals(0, g.gq("hold", "--group", "sweep").code());
      long id = g.submit("-g", "1", "true");
      long held = g.submit("-g", "0", "--group", "sweep", "true");
      g.stopDaemon();
      g.startDaemon();
      g.awaitWaitReason(id, "the queue is held"); // the restarted daemon's plan
      assertEquals("WAITING", g.state(id));
      assertTrue(g.gq("ps").out().contains("queue held"), g.gq("ps").out());
      assertEquals(0, g.gq("release", "--all").code());
      g.awaitState(id, "DONE", T);
      assertEquals("WAITING", g.state(held), "the group is still held");
      assertTrue(g.gq("release", "--group", "sweep").out().contains("Released"));
      g.awaitState(held, "DONE", T);
    }
  }
}

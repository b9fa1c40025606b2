package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq adopt} with the real daemon, fake GPUs and real processes started outside gq: the GPU
 * an outside run uses turns from EXTERNAL into the adopted job's, a job waiting for it starts once
 * the run is killed, also across a daemon restart, and a vanished or another user's PID is refused.
 */
class AdoptEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killOutsiders() {
    started.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(Process::destroyForcibly);
  }

  /** {@code sleep 300} started by hand (as from a shell's {@code &}), its stdout to {@code log}, computing on GPU {@code index}. */
  private Process run(Gqd g, int index, Path log) throws IOException {
    Process p = new ProcessBuilder("bash", "-c", "echo 'Step 30/100'; exec sleep 300")
        .redirectOutput(log.toFile()).redirectErrorStream(true).start();
    started.add(p);
    if (index >= 0) Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(index)).resolve(String.valueOf(p.pid())), "500\n");
    return p;
  }

  private static void awaitGpu(Gqd g, int index, String state) throws InterruptedException {
    Gqd.await("GPU " + index + " to be " + state, T, () -> state.equals(g.gpuState(index)));
  }

  private static long adopt(Gqd g, Process p) {
    Gqd.Result r = g.gq("adopt", String.valueOf(p.pid()), "--json");
    assertEquals(0, r.code(), r.toString());
    JsonNode j = r.json();
    assertEquals(p.pid(), j.get("pid").asLong());
    return j.get("id").asLong();
  }

  @Test
  void anOutsideRunTurnsFromExternalIntoTheAdoptedJobsGpuAndAWaitingJobStartsOnceItIsKilled() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      Path log = tmp.resolve("run.log");
      Process p = run(g, 0, log);
      awaitGpu(g, 0, "EXTERNAL");
      long waiting = g.submit("-g", "1", "true");
      g.awaitWaitReason(waiting, "GPU");
      Gqd.Result r = g.gq("adopt", String.valueOf(p.pid()), "--json", "--name", "by-hand");
      assertEquals(0, r.code(), r.toString());
      long id = r.json().get("id").asLong();
      assertEquals(List.of(0), List.of(r.json().get("gpu_indices").get(0).asInt()));
      assertEquals(log.toString(), r.json().get("log_path").asText());
      awaitGpu(g, 0, "RUNNING");
      JsonNode gpu = g.gpus().get(0);
      assertEquals(id, gpu.get("owner_job_id").asLong(), gpu.toString());
      JsonNode job = g.job(id);
      assertEquals("RUNNING", job.get("state").asText());
      assertTrue(job.get("adopted").asBoolean());
      assertTrue(job.get("pgid").isNull(), "an adopted process's group is not the job's: " + job);
      assertEquals("sleep", job.get("argv").get(0).asText(), "argv as /proc shows it after the exec: " + job);
      assertEquals("300", job.get("argv").get(1).asText());
      assertEquals("WAITING", g.state(waiting));
      assertTrue(g.gq("show", String.valueOf(id)).out().contains("Adopted"), g.gq("show", String.valueOf(id)).out());
      assertTrue(g.gq("logs", String.valueOf(id)).out().contains("Step 30/100"));
      Gqd.Result eta = g.gq("eta", String.valueOf(id));
      assertTrue(eta.out().contains("30/100"), "gq eta reads the adopted run's stdout: " + eta);
      Gqd.Result again = g.gq("adopt", String.valueOf(p.pid()));
      assertEquals(1, again.code(), again.toString());
      assertTrue(again.err().contains("is already job " + id + "'s (adopted)"), again.err());

      p.destroy();
      JsonNode ended = g.awaitState(id, "EXITED", T);
      assertTrue(ended.get("exit_code").isNull(), ended.toString());
      assertEquals("exit status unknown: the process was adopted", ended.get("failure_reason").asText());
      g.awaitState(waiting, "DONE", T);
    }
  }

  @Test
  void anAdoptedRunSurvivesADaemonRestartAndEndsExitedWhenKilledBeforeOrAfterIt() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      Process p = run(g, 0, tmp.resolve("a.log"));
      awaitGpu(g, 0, "EXTERNAL");
      long a = adopt(g, p);
      long waiting = g.submit("-g", "1", "true");
      g.stopDaemon();
      g.startDaemon();
      assertEquals("RUNNING", g.state(a));
      awaitGpu(g, 0, "RUNNING");
      assertEquals(a, g.gpus().get(0).get("owner_job_id").asLong());
      assertEquals("WAITING", g.state(waiting));
      p.destroy();
      g.awaitState(a, "EXITED", T);
      g.awaitState(waiting, "DONE", T);

      // killed while the daemon is down: no exit record exists, and none is invented
      Process q = run(g, 0, tmp.resolve("b.log"));
      awaitGpu(g, 0, "EXTERNAL");
      long b = adopt(g, q);
      long next = g.submit("-g", "1", "true");
      g.stopDaemon();
      q.destroy();
      q.waitFor();
      g.startDaemon();
      JsonNode ended = g.awaitState(b, "EXITED", T);
      assertTrue(ended.get("exit_code").isNull(), ended.toString());
      g.awaitState(next, "DONE", T);
    }
  }

  @Test
  void cancelSignalsTheAdoptedRunAndItsDescendantsButNotItsParentOrGroup() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      Path childPid = tmp.resolve("child.pid");
      // the user's shell: the run's parent, in the same process group and session as the run
      Process shell = new ProcessBuilder("bash", "-c", "bash -c 'sleep 301 & echo $! > " + childPid + "; wait' & sleep 300; true")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      started.add(shell);
      Gqd.await("the run's child", T, () -> Files.exists(childPid) && !readOrEmpty(childPid).isEmpty());
      long child = Long.parseLong(readOrEmpty(childPid));
      ProcessHandle runProc = ProcessHandle.of(child).orElseThrow().parent().orElseThrow();
      Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(0)).resolve(String.valueOf(child)), "500\n");
      awaitGpu(g, 0, "EXTERNAL");
      Gqd.Result r = g.gq("adopt", String.valueOf(runProc.pid()), "--json");
      assertEquals(0, r.code(), r.toString());
      long id = r.json().get("id").asLong();
      assertEquals(0, r.json().get("gpu_indices").get(0).asInt(), "a descendant's GPU is the job's: " + r.out());
      awaitGpu(g, 0, "RUNNING");
      assertEquals(0, g.gq("cancel", String.valueOf(id)).code());
      g.awaitState(id, "CANCELLED", T);
      assertTrue(ended(child), "the descendant got the signal");
      assertTrue(ended(runProc.pid()), "the adopted run got the signal");
      assertTrue(shell.isAlive(), "the run's parent shell, in the same group and session, was left alone");
    }
  }

  @Test
  void anotherGqOnTheMachineSeesTheAdoptedJobsLeaseAndCannotAdoptTheRunToo() throws Exception {
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1);
        Gqd b = Gqd.start(tmp.resolve("b"), 1, java.util.Map.of("GQ_FAKE_NVML", tmp.resolve("a/fake").toString()))) {
      Process p = run(a, 0, tmp.resolve("run.log"));
      awaitGpu(a, 0, "EXTERNAL");
      long id = adopt(a, p);
      Gqd.await("the other gq to see the lease", T, () -> b.gpus().get(0).path("held_by").asText().contains("job " + id));
      Gqd.Result r = b.gq("adopt", String.valueOf(p.pid()));
      assertEquals(1, r.code(), r.toString());
      assertTrue(r.err().contains("is held by job " + id + " of the gq in"), r.err());
      p.destroy();
      a.awaitState(id, "EXITED", T);
      Gqd.await("the lease to be let go", T, () -> "FREE".equals(b.gpuState(0)));
    }
  }

  @Test
  void aVanishedPidAndAnotherUsersPidAreRefused() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      Process gone = new ProcessBuilder("true").start();
      gone.waitFor();
      Gqd.Result r = g.gq("adopt", String.valueOf(gone.pid()));
      assertEquals(1, r.code(), r.toString());
      assertTrue(r.err().contains("process " + gone.pid() + " does not exist"), r.err());
      assertEquals("", r.out());

      Assumptions.assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/bin/setpriv")),
          "running a process as another user needs root and setpriv");
      Process nobody = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "300")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      started.add(nobody);
      Gqd.await("the process to run as uid 65534", T, () -> readOrEmpty(Path.of("/proc/" + nobody.pid() + "/status"))
          .lines().anyMatch(l -> l.startsWith("Uid:") && l.contains("65534")));
      Gqd.Result other = g.gq("adopt", String.valueOf(nobody.pid()));
      assertEquals(1, other.code(), other.toString());
      assertTrue(other.err().contains("process " + nobody.pid() + " belongs to uid 65534, not to you"), other.err());
      assertTrue(nobody.isAlive());
      assertEquals(0, g.gq("ps", "--all", "--json").json().size(), "nothing was adopted");
    }
  }

  /** Whether {@code pid} is gone or a zombie (its parent may not have reaped it yet). */
  private static boolean ended(long pid) {
    String stat = readOrEmpty(Path.of("/proc/" + pid + "/stat"));
    return stat.isEmpty() || stat.substring(stat.lastIndexOf(')') + 1).strip().startsWith("Z");
  }

  private static boolean isRoot() {
    return readOrEmpty(Path.of("/proc/self/status")).lines().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
  }

  private static String readOrEmpty(Path p) {
    try {
      return Files.readString(p).strip();
    } catch (IOException e) {
      return "";
    }
  }
}

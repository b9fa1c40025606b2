package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * gq's jobs run by a real single-node Slurm ({@link RealSlurm}): the options as Slurm gets them,
 * exit codes, dependencies, a throttled array for a sweep, keys on a re-run, retries, secrets kept
 * out, a time limit with its warning signal, and a controller that stops for a while.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class SlurmEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir static Path tmp;
  private RealSlurm slurm;
  private Gqd gq;
  private long timeLimited;

  @BeforeAll
  void start() throws Exception {
    slurm = RealSlurm.start(tmp.resolve("slurm"), 4);
    Path config = tmp.resolve("config.toml");
    Files.writeString(config, """
        slurm_poll = "300ms"
        [slurm.default]
        [slurm.short]
        signal = "USR2@50"
        """);
    Map<String, String> env = new HashMap<>(slurm.env());
    env.put("GQ_CONFIG", config.toString());
    env.put("HF_TOKEN", "hf_secret_value");
    gq = Gqd.start(tmp.resolve("gq"), 1, env);
  }

  /**
   * A time limit takes a minute to reach: its job is sent here, second (after the controller's stop,
   * which would swallow its warning), runs beside the other tests, and the last test checks its end.
   */
  @Test
  @org.junit.jupiter.api.Order(2)
  void aTimeLimitedJobReachesSlurmWithItsLimit() throws Exception {
    timeLimited = gq.submit("-g", "0", "--to", "slurm:short", "--time", "1m", "bash", "-c",
        "trap 'echo warned' USR2; echo started; while :; do sleep 1; done");
    Gqd.await("job " + timeLimited + " to be sent", T, () -> !gq.job(timeLimited).get("cluster_job_id").isNull());
    assertEquals("00:01:00", slurm.jobField(clusterId(timeLimited), "TimeLimit"));
  }

  @AfterAll
  void stop() throws Exception {
    if (gq != null) gq.close();
    if (slurm != null) slurm.close();
  }

  private String clusterId(long id) {
    JsonNode j = gq.job(id);
    assertEquals("slurm", j.get("backend").asText().replaceAll(":.*", ""), j.toString());
    return j.get("cluster_job_id").asText();
  }

  private String log(long id) throws Exception {
    return Files.readString(Path.of(gq.job(id).get("log_path").asText()));
  }

  @Test
  void aTwoGpuJobGetsTwoGpusItsLogAndNoSecretsAndExitCodesAreReal() throws Exception {
    long ok = gq.submit("-g", "2", "--to", "slurm", "bash", "-c", "echo gpus=$CUDA_VISIBLE_DEVICES token=${HF_TOKEN-unset} job=$GQ_JOB_ID");
    long bad = gq.submit("-g", "0", "--to", "slurm", "bash", "-c", "echo failing; exit 3");
    gq.awaitState(ok, "DONE", T);
    String id = clusterId(ok);
    assertTrue(slurm.run("scontrol", "show", "job", id).contains("TresPerNode=gres:gpu:2"), slurm.run("scontrol", "show", "job", id));
    assertEquals("gpus=0,1 token=unset job=" + ok, log(ok).strip());
    assertEquals(0, gq.job(ok).get("exit_code").asInt());
    JsonNode failed = gq.awaitState(bad, "FAILED", T);
    assertEquals(3, failed.get("exit_code").asInt());
    assertTrue(log(bad).contains("failing"));
  }

  @Test
  void aThirdTwoGpuJobWaitsForResourcesAndCancelsReachSlurm() throws Exception {
    long a = gq.submit("-g", "2", "--to", "slurm", "sleep", "120");
    long b = gq.submit("-g", "2", "--to", "slurm", "sleep", "120");
    gq.awaitState(a, "RUNNING", T);
    gq.awaitState(b, "RUNNING", T);
    long c = gq.submit("-g", "2", "--to", "slurm", "sleep", "120");
    Gqd.await("job " + c + " to be sent", T, () -> !gq.job(c).get("cluster_job_id").isNull());
    String cid = clusterId(c);
    Gqd.await("Slurm job " + cid + " to wait for Resources", T, () -> "Resources".equals(slurm.jobField(cid, "Reason")));
    assertEquals("WAITING", gq.state(c));
    Gqd.Result r = gq.gq("cancel", String.valueOf(a));
    assertTrue(r.out().contains("scancel"), r.toString());
    gq.awaitState(a, "CANCELLED", T);
    gq.awaitState(c, "RUNNING", T);
    gq.gq("cancel", String.valueOf(b));
    gq.gq("cancel", String.valueOf(c));
    gq.awaitState(b, "CANCELLED", T);
    gq.awaitState(c, "CANCELLED", T);
    for (long id : List.of(a, b, c)) {
      String sid = clusterId(id);
      Gqd.await("Slurm to end job " + sid, T, () -> slurm.run("squeue", "-h", "-t", "running,pending", "-j", sid).isBlank());
    }
  }

  @Test
  void afterOkOfAFailingJobCancelsTheDependentAndLocalMixIsRefused() throws Exception {
    long first = gq.submit("-g", "0", "--to", "slurm", "bash", "-c", "sleep 2; exit 1");
    long then = gq.submit("-g", "0", "--to", "slurm", "--after-ok", String.valueOf(first), "echo", "never");
    Gqd.await("job " + then + " to be sent", T, () -> !gq.job(then).get("cluster_job_id").isNull());
    String dep = slurm.jobField(clusterId(then), "Dependency");
    assertTrue(dep.startsWith("afterok:" + clusterId(first)), dep);
    gq.awaitState(first, "FAILED", T);
    JsonNode cancelled = gq.awaitState(then, "CANCELLED", T);
    assertFalse(cancelled.get("failure_reason").isNull());
    Gqd.Result mixed = gq.gq("-g", "0", "--after", String.valueOf(gq.submit("-g", "0", "--to", "slurm", "sleep", "30")), "true");
    assertEquals(1, mixed.code(), mixed.toString());
    assertTrue(mixed.err().contains("same --to"), mixed.err());
  }

  @Test
  void aSweepIsOneArrayThrottledByMaxRunningAndARerunSkipsItsKeys() throws Exception {
    // the sweep as one batch: one request, so one pass and one array however loaded the machine is
    // (submits from a shell loop make one array too, while each comes within a second of the last)
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 6; i++)
      lines.append("{\"argv\": [\"bash\", \"-c\", \"echo cell ").append(i).append("; sleep 2\"], \"key\": \"cell-").append(i)
          .append("\"}\n");
    Path cells = Files.writeString(tmp.resolve("cells.jsonl"), lines);
    Gqd.Result sent = gq.gq("submit", "--batch", cells.toString(), "--json", "-g", "1", "--to", "slurm", "--group", "sw",
        "--max-running", "2");
    assertEquals(0, sent.code(), sent.toString());
    List<Long> ids = new ArrayList<>();
    for (JsonNode line : sent.json()) ids.add(line.get("id").asLong());
    assertEquals(6, ids.size(), sent.toString());
    Gqd.await("the sweep to be sent", T, () -> ids.stream().noneMatch(id -> gq.job(id).get("cluster_job_id").isNull()));
    Set<String> arrays = new TreeSet<>();
    for (long id : ids) arrays.add(clusterId(id).replaceAll("_.*", ""));
    assertEquals(1, arrays.size(), "one array job: " + arrays);
    int most = 0;
    while (ids.stream().anyMatch(id -> !gq.state(id).equals("DONE"))) {
      String running = slurm.run("squeue", "-h", "-r", "-t", "running", "-j", arrays.iterator().next());
      most = Math.max(most, (int) running.lines().filter(l -> !l.isBlank()).count());
      assertTrue(most <= 2, "more than 2 tasks ran at once: " + running);
      Thread.sleep(100);
      for (long id : ids) assertFalse(Set.of("FAILED", "CANCELLED", "INTERRUPTED").contains(gq.state(id)), gq.job(id).toString());
    }
    assertEquals(2, most, "the throttle let 2 run at once");
    for (int i = 0; i < 6; i++) assertEquals("cell " + i, log(ids.get(i)).strip());
    for (int i = 0; i < 6; i++) {
      Gqd.Result again = gq.gq("-g", "1", "--to", "slurm", "--group", "sw", "--key", "cell-" + i, "bash", "-c", "echo again");
      assertTrue(again.out().startsWith("Skipped: key 'cell-" + i + "' is already DONE"), again.toString());
    }
  }

  @Test
  void retriesAreSlurmRequeuesAndTheLastExitCodeCounts() throws Exception {
    Path marker = tmp.resolve("tried-once");
    long id = gq.submit("-g", "0", "--to", "slurm", "--retries", "1", "bash", "-c",
        "if [ -e " + marker + " ]; then echo second; exit 0; fi; touch " + marker + "; echo first; exit 4");
    JsonNode done = gq.awaitState(id, "DONE", Duration.ofSeconds(90));
    assertEquals(0, done.get("exit_code").asInt());
    String log = log(id);
    assertTrue(log.contains("first") && log.contains("Slurm runs the job again (retry 1 of 1)") && log.contains("second"), log);
    assertEquals("1", slurm.jobField(clusterId(id), "Restarts"));
  }

  @Test
  @org.junit.jupiter.api.Order(Integer.MAX_VALUE) // last: unannotated tests come first
  void aTimeLimitSendsTheWarningSignalThenEndsTheJobAsTimeout() throws Exception {
    long id = timeLimited;
    assertNotEquals(0, id, "the time-limited job was sent");
    JsonNode t = gq.awaitState(id, "TIMEOUT", Duration.ofSeconds(150));
    assertTrue(log(id).contains("warned"), log(id));
    assertFalse(t.get("failure_reason").isNull());
  }

  @Test
  @org.junit.jupiter.api.Order(1) // first: a stopped controller would swallow the time-limited job's warning
  void theControllerStoppedForAWhileLosesNothing() throws Exception {
    Path go = tmp.resolve("controller-down");
    Path over = tmp.resolve("ended-while-down");
    long running = gq.submit("-g", "0", "--to", "slurm", "bash", "-c",
        "while [ ! -e " + go + " ]; do sleep 0.1; done; echo finished; touch " + over + "; exit 7");
    gq.awaitState(running, "RUNNING", T);
    slurm.stopController();
    Gqd.await("the daemon to notice", T, () -> gq.daemonLog().contains("does not answer"));
    Gqd.Result ps = gq.gq("ps");
    assertTrue(ps.out().contains("UNKNOWN"), ps.toString());
    assertTrue(ps.err().contains("does not answer"), ps.toString());
    long sentLater = gq.submit("-g", "0", "--to", "slurm", "echo", "late");
    // the first job ends while the controller is down: gq cannot know it yet
    Files.writeString(go, "");
    Gqd.await("the job to end", T, () -> Files.exists(over));
    assertEquals("RUNNING", gq.state(running));
    assertEquals("WAITING", gq.state(sentLater));
    slurm.startController();
    JsonNode ended = gq.awaitState(running, "FAILED", T);
    assertEquals(7, ended.get("exit_code").asInt());
    gq.awaitState(sentLater, "DONE", T);
    assertEquals("late", log(sentLater).strip());
    assertTrue(gq.gq("ps").err().isEmpty());
  }

  @Test
  void aDaemonKilledWhileItsClusterJobsRunReadsTheirEndsBack() throws Exception {
    long running = gq.submit("-g", "0", "--to", "slurm", "bash", "-c", "sleep 4; exit 6");
    long waiting = gq.submit("-g", "0", "--to", "slurm", "--after", String.valueOf(running), "echo", "after");
    gq.awaitState(running, "RUNNING", T);
    Gqd.await("job " + waiting + " to be sent", T, () -> !gq.job(waiting).get("cluster_job_id").isNull());
    String first = clusterId(running);
    gq.killDaemon();
    Gqd.await("Slurm to end job " + first, T, () -> slurm.run("squeue", "-h", "-t", "running,pending", "-j", first).isBlank());
    gq.startDaemon();
    assertEquals(6, gq.awaitState(running, "FAILED", T).get("exit_code").asInt());
    gq.awaitState(waiting, "DONE", T);
    assertEquals("after", log(waiting).strip());
  }
}

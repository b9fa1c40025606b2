package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocation invariant with the real daemon, real jobs and fake GPUs. Tests that change no
 * fake GPU but by a process of their own share one daemon per GPU layout ({@link SharedDaemons}).
 */
class AllocationEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @RegisterExtension static final SharedDaemons SHARED = new SharedDaemons();

  @TempDir Path tmp;

  @Test
  void jobRunsOnAFreeGpuWithCudaVariablesSet() throws Exception {
    Gqd g = SHARED.withGpus(4);
    Process outside = Jobs.outsider(g, 0);
    try {
      Gqd.await("GPU 0 EXTERNAL", T, () -> "EXTERNAL".equals(g.gpuState(0)));
      long id = g.submit("-g", "2", "bash", "-c",
          "echo \"CVD=$CUDA_VISIBLE_DEVICES ORDER=$CUDA_DEVICE_ORDER UUIDS=$GQ_GPU_UUIDS ID=$GQ_JOB_ID\"");
      JsonNode job = g.awaitState(id, "DONE", T);
      assertEquals(0, job.get("exit_code").asInt());
      String log = Jobs.log(g, id);
      assertTrue(log.contains("CVD=1,2 ORDER=PCI_BUS_ID UUIDS=GPU-fake-1,GPU-fake-2 ID=" + id), log);
      assertEquals("[1,2]", job.get("gpu_indices").toString());
    } finally {
      outside.destroyForcibly().waitFor();
    }
  }

  @Test
  void cpuOnlyJobRunsAtOnceAndSeesNoGpu() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Gqd.Result r = g.gq("-g", "0", "bash", "-c", "echo \"CVD=[$CUDA_VISIBLE_DEVICES]\"");
      assertEquals("Submitted job 1\n", r.out());
      assertEquals("", r.err(), "nothing on stderr for a plain submit");
      long id = 1;
      g.awaitState(id, "DONE", T);
      assertTrue(Jobs.log(g, id).contains("CVD=[]"));
    }
  }

  @Test
  void externalProcessKeepsItsGpuOffLimitsUntilItIsGone() throws Exception {
    Gqd g = SHARED.withGpus(1);
    Process outside = Jobs.outsider(g, 0);
    try {
      Gqd.await("GPU 0 EXTERNAL", T, () -> "EXTERNAL".equals(g.gpuState(0)));
      long id = g.submit("-g", "1", "true");
      g.awaitWaitReason(id, "GPU 0: outside process");
      assertEquals("WAITING", g.state(id));
      String ps = g.gq("ps").out();
      assertTrue(ps.contains("GPUs busy"), ps);
      String show = g.gq("show", String.valueOf(id)).out();
      assertTrue(show.contains("GPU 0: outside"), show);
      outside.destroyForcibly().waitFor();
      g.awaitState(id, "DONE", T);
    } finally {
      outside.destroyForcibly().waitFor();
    }
  }

  @Test
  void ghostPidOnAReservedGpuMakesItUnknownAndNothingElseGoesThere() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long first = g.submit("-g", "1", "sleep", "2");
      g.awaitState(first, "RUNNING", T);
      Files.writeString(g.fake.resolve("procs/GPU-fake-0/999999"), "ghost");
      Gqd.await("GPU 0 UNKNOWN", T, () -> "UNKNOWN".equals(g.gpuState(0)));
      assertEquals(first, g.gpus().get(0).get("owner_job_id").asLong());
      long second = g.submit("-g", "1", "true");
      g.awaitState(first, "DONE", T);
      // decided on the GPU after the first job's end: the ghost makes it an outside process's
      g.awaitWaitReason(second, "GPU 0: outside process");
      assertEquals("WAITING", g.state(second), "a GPU with a ghost process must not be given out");
      assertEquals("EXTERNAL", g.gpuState(0));
      Files.delete(g.fake.resolve("procs/GPU-fake-0/999999"));
      g.awaitState(second, "DONE", T);
    }
  }

  @Test
  void nvmlFailureMakesEveryGpuUnknownAndNothingIsPlacedUntilItClears() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      Files.writeString(g.fake.resolve("fail"), "NVML_ERROR_DRIVER_NOT_LOADED");
      Gqd.await("all GPUs UNKNOWN", T, () -> "UNKNOWN".equals(g.gpuState(0)) && "UNKNOWN".equals(g.gpuState(1)));
      long id = g.submit("-g", "1", "true");
      g.awaitWaitReason(id, "needs 1 GPU, 0 free (GPU 0: UNKNOWN; GPU 1: UNKNOWN)");
      assertEquals("WAITING", g.state(id));
      Files.delete(g.fake.resolve("fail"));
      g.awaitState(id, "DONE", T);
    }
  }

  @Test
  void twoMultiGpuJobsSubmittedAtOnceNeverOverlap() throws Exception {
    Gqd g = SHARED.withGpus(4);
    Thread[] ts = new Thread[4];
    long[] ids = new long[4];
    for (int i = 0; i < ts.length; i++) {
      int k = i;
      ts[i] = new Thread(() -> ids[k] = g.submit("-g", "2", "bash", "-c", Jobs.OPEN_CONTEXT + "sleep 1"));
      ts[i].start();
    }
    for (Thread t : ts) t.join();
    for (long id : ids) g.awaitState(id, "DONE", T);
    // Each pair that ran at the same time used disjoint GPUs.
    for (int a = 0; a < ids.length; a++)
      for (int b = a + 1; b < ids.length; b++) {
        JsonNode x = g.job(ids[a]), y = g.job(ids[b]);
        if (overlapInTime(x, y)) assertDisjoint(x, y);
      }
  }

  private static boolean overlapInTime(JsonNode x, JsonNode y) {
    var xs = java.time.Instant.parse(x.get("start_time").asText());
    var xe = java.time.Instant.parse(x.get("end_time").asText());
    var ys = java.time.Instant.parse(y.get("start_time").asText());
    var ye = java.time.Instant.parse(y.get("end_time").asText());
    return xs.isBefore(ye) && ys.isBefore(xe);
  }

  private static void assertDisjoint(JsonNode x, JsonNode y) {
    Set<String> a = new HashSet<>();
    x.get("gpu_uuids").forEach(n -> a.add(n.asText()));
    y.get("gpu_uuids").forEach(n -> assertFalse(a.contains(n.asText()), "GPU " + n + " given to two jobs at once"));
  }

  @Test
  void setsidChildOfAJobKeepsItsGpuOwned() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long id = g.submit("-g", "1", "bash", "-c",
        "setsid bash -c '" + Jobs.OPEN_CONTEXT.replace("'", "'\\''") + "sleep 1.5' & wait");
    g.awaitState(id, "RUNNING", T);
    Gqd.await("the child's context", T, () -> g.gpus().get(0).get("processes").size() == 1);
    assertEquals("RUNNING", g.gpuState(0));
    g.awaitState(id, "DONE", T);
  }

  @Test
  void jobOpeningAContextOnAGpuItWasNotGivenMakesThatGpuUnavailable() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      long stray = g.submit("-g", "1", "bash", "-c",
          "echo 100 > \"$GQ_FAKE_NVML/procs/GPU-fake-1/$$\"; sleep 3");
      g.awaitState(stray, "RUNNING", T);
      Gqd.await("GPU 1 EXTERNAL", T, () -> "EXTERNAL".equals(g.gpuState(1)));
      long other = g.submit("-g", "1", "true");
      g.awaitWaitReason(other, "GPU 1: outside process");
      assertEquals("WAITING", g.state(other));
      g.awaitState(stray, "DONE", T);
      g.awaitState(other, "DONE", T);
    }
  }
}

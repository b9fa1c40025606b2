package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Caps on what runs at once, with the real daemon and real jobs. */
class LimitsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void noMoreCpuOnlyJobsRunAtOnceThanTheCapAndTheOthersSayWhy() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1, Map.of("GQ_MAX_CPU_JOBS", "2"))) {
      Path go = tmp.resolve("go");
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++)
        ids.add(g.submit("-g", "0", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done"));
      g.awaitState(ids.get(0), "RUNNING", T);
      g.awaitState(ids.get(1), "RUNNING", T);
      Gqd.await("job " + ids.get(2) + " to say why it waits", T,
          () -> g.gq("show", String.valueOf(ids.get(2))).out().contains("GQ_MAX_CPU_JOBS"));
      assertEquals("WAITING", g.state(ids.get(2)));
      assertEquals("WAITING", g.state(ids.get(3)));
      var why = g.job(ids.get(2)).get("wait_reason");
      assertEquals("cpu_jobs_at_max", why.get("code").asText(), why.toString());
      assertEquals("the most CPU-only jobs allowed at once already run (GQ_MAX_CPU_JOBS)", why.get("text").asText());
      Files.writeString(go, "");
      for (long id : ids) g.awaitState(id, "DONE", T);
    }
  }

  @Test
  void aGroupRunsNoMoreJobsAtOnceThanItsCapUntilTheCapIsLifted() throws Exception {
    try (Gqd g = Gqd.start(tmp, 4)) {
      Path go = tmp.resolve("go");
      String wait = "while [ ! -e " + go + " ]; do sleep 0.05; done";
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++)
        ids.add(g.submit("-g", "1", "--group", "sweep", "--max-running", "2", "bash", "-c", wait));
      g.awaitState(ids.get(0), "RUNNING", T);
      g.awaitState(ids.get(1), "RUNNING", T);
      Gqd.await("job " + ids.get(2) + " to name the cap", T,
          () -> g.gq("show", String.valueOf(ids.get(2))).out().contains("--max-running 2"));
      assertEquals("WAITING", g.state(ids.get(3)));
      assertEquals(2, g.gq("groups", "--json").json().get(0).get("max_running").asInt());
      g.stopDaemon();
      g.startDaemon();
      assertEquals("WAITING", g.state(ids.get(2)), "the cap survives a restart");
      Gqd.Result lifted = g.gq("groups", "sweep", "--no-max-running");
      assertEquals("Group sweep: no cap on its jobs at once.\n", lifted.out(), lifted.toString());
      g.awaitState(ids.get(2), "RUNNING", T);
      g.awaitState(ids.get(3), "RUNNING", T);
      Files.writeString(go, "");
      for (long id : ids) g.awaitState(id, "DONE", T);
    }
  }

  @Test
  void aDrainedGpuGetsNoNewJobEvenAfterARestartUntilItIsResumed() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      Gqd.Result drained = g.gq("gpu", "drain", "0", "--reason", "notebooks");
      assertEquals(0, drained.code(), drained.toString());
      assertTrue(drained.out().startsWith("GPU 0 is drained: no new jobs on it"), drained.out());
      Gqd.await("GPU 0 to show DRAINED", T, () -> "DRAINED".equals(g.gpuState(0)));
      long first = g.submit("-g", "1", "sleep", "30");
      assertEquals(1, g.awaitState(first, "RUNNING", T).get("gpu_indices").get(0).asInt());
      long second = g.submit("-g", "1", "true");
      Gqd.await("job " + second + " to say GPU 0 is drained", T,
          () -> g.gq("show", String.valueOf(second)).out().contains("GPU 0: drained"));
      g.stopDaemon();
      g.startDaemon();
      Gqd.await("GPU 0 to show DRAINED after the restart", T, () -> "DRAINED".equals(g.gpuState(0)));
      assertEquals("WAITING", g.state(second));
      assertEquals(2, g.gq("gpu", "drain", "7").code(), "no GPU 7: a usage error");
      assertEquals("GPU 0 takes new jobs again.\n", g.gq("gpu", "resume", "0").out());
      assertEquals(0, g.awaitState(second, "DONE", T).get("gpu_indices").get(0).asInt());
      g.gq("cancel", String.valueOf(first));
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What gq reads of the GPUs besides their processes, on fake GPUs: the figures `gq gpu` shows, a GPU
 * that becomes unwell under a running job (drained with the reason, the job left alone, given back by
 * `gq gpu resume`), and a running job whose GPUs do nothing marked idle.
 */
class GpuSignalsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  private static void write(Path file, String text) throws Exception {
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, text);
    Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** A notification target that appends "EVENT|JOB|MESSAGE" to {@code out}, hearing the default events. */
  private Path recorder(Gqd g, Path out) throws Exception {
    Path script = tmp.resolve("bin").resolve("record.sh");
    write(script, "#!/bin/sh\nprintf '%s|%s|%s\\n' \"$GQ_EVENT\" \"$GQ_JOB_ID\" \"$GQ_MESSAGE\" >> " + out + "\n");
    script.toFile().setExecutable(true);
    assertEquals(0, g.gq("notify", "add", "command", script.toString()).code());
    return out;
  }

  private static long lines(Path f, String part) {
    try {
      return Files.exists(f) ? Files.readAllLines(f).stream().filter(l -> l.contains(part)).count() : 0;
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode gpu(Gqd g, int index) {
    for (JsonNode n : g.gpus()) if (n.get("index").asInt() == index) return n;
    throw new AssertionError("no GPU " + index);
  }

  @Test
  void figuresFromTheFakeFolderAreShownAndAFigureNotGivenIsNull() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      write(g.fake.resolve("figures").resolve(Gqd.uuid(0)), "util=37 mem_util=12 temp=61 power=210 power_limit=700\n");
      Gqd.await("GPU 0's figures", T, () -> gpu(g, 0).get("util_percent").asInt(-1) == 37);
      JsonNode zero = gpu(g, 0);
      assertEquals(12, zero.get("memory_util_percent").asInt());
      assertEquals(61, zero.get("temperature_c").asInt());
      assertEquals(210, zero.get("power_watts").asInt());
      assertEquals(700, zero.get("power_limit_watts").asInt());
      assertTrue(zero.get("unwell").isNull());
      JsonNode one = gpu(g, 1);
      for (String f : new String[] {"util_percent", "memory_util_percent", "temperature_c", "power_watts", "power_limit_watts"})
        assertTrue(one.get(f).isNull(), f + " of a GPU that gives none: " + one);
      String table = g.gq("gpu").out();
      assertTrue(table.contains("UTIL") && table.contains("37%") && table.contains("61C") && table.contains("210/700W"), table);
    }
  }

  @Test
  void aGpuThatFallsOffTheBusUnderAJobIsDrainedTheJobRunsOnAndResumeGivesItBack() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      Path heard = recorder(g, tmp.resolve("heard.txt"));
      long first = g.submit("-g", "1", "sleep", "120");
      assertEquals(0, g.awaitState(first, "RUNNING", T).get("gpu_indices").get(0).asInt());
      write(g.fake.resolve("health").resolve(Gqd.uuid(0)), "xid 13   # a program's fault: the GPU stays well\n");
      write(g.fake.resolve("health").resolve(Gqd.uuid(1)), "xid 31\n");
      Gqd.await("GPU 1's Xid 31 to be read", T, () -> gpu(g, 1).get("unwell").isNull() && g.gq("events").code() == 0);
      write(g.fake.resolve("health").resolve(Gqd.uuid(0)), "xid 13\nxid 79\n");
      Gqd.await("GPU 0 to be unwell", T, () -> "Xid 79: fell off the bus".equals(gpu(g, 0).get("unwell").asText(null)));
      assertEquals("RUNNING", g.state(first), "a job on an unwell GPU is left alone");
      assertTrue(gpu(g, 0).get("detail").asText().contains("unwell: Xid 79: fell off the bus"), gpu(g, 0).toString());
      assertTrue(gpu(g, 1).get("unwell").isNull(), "Xid 31 is an application's: " + gpu(g, 1));
      String show = g.gq("show", String.valueOf(first)).out();
      assertTrue(show.contains("GPU unwell:") && show.contains("GPU 0: Xid 79: fell off the bus"), show);
      JsonNode shown = g.gq("show", String.valueOf(first), "--json").json();
      assertEquals("Xid 79: fell off the bus", shown.get("unwell_gpus").get(0).get("problem").asText());
      assertTrue(g.gq("ps").out().contains("GPU 0 unwell"));
      assertTrue(g.gq("events").out().contains("unwell: Xid 79: fell off the bus"));

      g.gq("cancel", String.valueOf(first));
      g.awaitState(first, "CANCELLED", T);
      Gqd.await("GPU 0 to show DRAINED", T, () -> "DRAINED".equals(g.gpuState(0)));
      long second = g.submit("-g", "1", "sleep", "120");
      assertEquals(1, g.awaitState(second, "RUNNING", T).get("gpu_indices").get(0).asInt(), "never on the unwell GPU");
      long third = g.submit("-g", "1", "true");
      g.awaitWaitReason(third, "GPU 0");
      assertEquals("WAITING", g.state(third));
      assertEquals("GPU 0 takes new jobs again.\n", g.gq("gpu", "resume", "0").out());
      assertEquals(0, g.awaitState(third, "DONE", T).get("gpu_indices").get(0).asInt());
      assertEquals("FREE", g.gpuState(0), "the same lasting Xid does not drain it again");
      String unhealthy = "unhealthy||GPU " + Gqd.uuid(0) + " is unwell (Xid 79: fell off the bus)";
      Gqd.await("the unhealthy notification", T, () -> lines(heard, unhealthy) > 0);
      assertEquals(1, lines(heard, "unhealthy|"), "told once, and never for the application's Xids 13 and 31");
      g.gq("cancel", String.valueOf(second));
    }
  }

  @Test
  void aRunningJobWhoseGpusDoNothingIsMarkedIdleUntilTheyWork() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1, Map.of("GQ_IDLE_AFTER_SECONDS", "1"))) {
      Path heard = recorder(g, tmp.resolve("heard.txt"));
      Path figures = g.fake.resolve("figures").resolve(Gqd.uuid(0));
      write(figures, "util=0\n");
      long job = g.submit("-g", "1", "sleep", "120");
      g.awaitState(job, "RUNNING", T);
      Gqd.await("job " + job + " to show idle", T, () -> g.gq("ps").out().contains("idle "));
      String ps = g.gq("ps").out();
      assertTrue(ps.contains("NOTE"), ps);
      assertFalse(g.gq("show", String.valueOf(job), "--json").json().get("idle_since").isNull());
      assertTrue(g.gq("show", String.valueOf(job)).out().contains("Idle:"));
      Gqd.await("the idle note in the journal", T, () -> g.gq("events").out().contains("JobIdleNoted"));
      Gqd.await("the idle notification", T, () -> lines(heard, "idle|" + job + "|job " + job + " (sleep) is idle") == 1);
      write(figures, "util=80\n");
      Gqd.await("job " + job + " to be busy again", T, () -> !g.gq("ps").out().contains("idle "));
      assertTrue(g.gq("show", String.valueOf(job), "--json").json().get("idle_since").isNull());
      assertEquals("RUNNING", g.state(job), "gq never stops an idle job");
      g.gq("cancel", String.valueOf(job));
    }
  }
}

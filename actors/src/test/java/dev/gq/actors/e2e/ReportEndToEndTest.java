package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq report} through the real daemon on two fake GPUs: jobs of two groups that end DONE,
 * FAILED and CANCELLED, an outside process on GPU 1, a restart in between (the GPU record is
 * written at the stop and read after it), the JSON figures, and the plot written as PNG and SVG into
 * the caller's directory.
 */
class ReportEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void theReportCountsWhatTheJobsAndTheOutsideProcessDid() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      long done = g.submit("-g", "1", "--group", "train", "sleep", "1");
      long failed = g.submit("-g", "1", "--group", "train", "bash", "-c", "sleep 0.5; exit 3");
      g.awaitState(done, "DONE", T);
      g.awaitState(failed, "FAILED", T);
      Path ghost = g.fake.resolve("procs/" + Gqd.uuid(1) + "/999999");
      Files.writeString(ghost, "ghost");
      Gqd.await("GPU 1 EXTERNAL", T, () -> "EXTERNAL".equals(g.gpuState(1)));
      long cancelled = g.submit("-g", "1", "--group", "eval", "sleep", "60");
      g.awaitState(cancelled, "RUNNING", T);
      assertEquals(0, g.job(cancelled).get("gpu_indices").get(0).asInt(), "GPU 1 is the outside process's");
      assertEquals(0, g.gq("cancel", String.valueOf(cancelled)).code());
      g.awaitState(cancelled, "CANCELLED", T);
      // the record is written every 30 polls (3 s here), open spans too: the outside process stays
      // until its time is in the record, as a loaded machine may delay the timeline's readings past
      // the seconds the job above took
      JsonNode[] last = {null};
      try {
        g.awaitLogged("the outside time in the record", T, () -> {
          last[0] = g.gq("report", "--since", "1h", "--json").json();
          JsonNode gpu1 = last[0].get("gpus").get(1);
          return gpu1.get("outside_hours").isNumber() && gpu1.get("outside_hours").asDouble() > 0;
        });
      } catch (AssertionError e) {
        throw new AssertionError("last report: " + last[0] + "\n" + e.getMessage(), e);
      }
      Files.delete(ghost);
      Gqd.await("GPU 1 FREE", T, () -> "FREE".equals(g.gpuState(1)));

      g.stopDaemon();
      g.startDaemon();

      JsonNode all = g.gq("report", "--since", "1h", "--json").json();
      JsonNode total = all.get("total");
      assertEquals(1, total.get("ended").get("DONE").asInt(), all.toString());
      assertEquals(1, total.get("ended").get("FAILED").asInt(), all.toString());
      assertEquals(1, total.get("ended").get("CANCELLED").asInt(), all.toString());
      assertEquals(3, total.get("started").asInt());
      assertTrue(total.get("gpu_hours").asDouble() > 0, all.toString());
      assertTrue(total.get("wait_median_seconds").isNumber(), all.toString());
      assertFalse(all.get("gpu_time_known_from").isNull(), "the GPU record survived the restart: " + all);
      assertEquals(2, all.get("gpus").size());
      assertTrue(all.get("gpus").get(1).get("outside_hours").asDouble() > 0, all.toString());
      assertEquals(0.0, all.get("gpus").get(0).get("outside_hours").asDouble(), all.toString());
      assertTrue(all.get("gpus").get(0).get("idle_hours").asDouble() > 0, all.toString());
      assertEquals("eval", all.get("groups").get(0).get("group").asText());
      assertEquals("train", all.get("groups").get(1).get("group").asText());

      JsonNode train = g.gq("report", "--since", "1h", "--group", "train", "--json").json();
      assertEquals(1, train.get("groups").size());
      assertEquals(0, train.get("total").get("ended").get("CANCELLED").asInt());
      assertEquals(2, train.get("total").get("started").asInt());

      Path sub = Files.createDirectories(g.work.resolve("plots"));
      Gqd.Result png = g.gqIn(sub, "report", "--since", "1h", "--plot", "week.png");
      assertEquals(0, png.code(), png.toString());
      byte[] bytes = Files.readAllBytes(sub.resolve("week.png"));
      assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, Arrays.copyOf(bytes, 8));
      Gqd.Result svg = g.gqIn(sub, "report", "--since", "1h", "--plot", "../week.svg", "--colour-by", "state");
      assertEquals(0, svg.code(), svg.toString());
      String doc = Files.readString(g.work.resolve("week.svg"));
      assertTrue(doc.contains("<svg") && doc.strip().endsWith("</svg>"), doc.substring(0, Math.min(300, doc.length())));

      Gqd.Result refused = g.gq("report", "--plot", "week.gif");
      assertEquals(2, refused.code());
      assertTrue(refused.err().startsWith("gq: cannot plot to week.gif: give a file ending in .png or .svg"), refused.err());
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq eta} on live jobs of the real daemon: one prints a tqdm bar that rewrites itself with
 * CR, another writes {@code $GQ_PROGRESS_FILE}; each is read from the source it used, with its
 * count and total, and {@code gq ps} shows the PROGRESS column.
 */
class ProgressEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  @Test
  void etaReadsATqdmBarAndTheProgressFileOfRunningJobs() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      String bar = "for i in 1 2 3 4 5; do printf '\\rtrain: %3d%%|##        | %d/250 [00:0%d<00:16, 12.50it/s]' "
          + "$((i*4)) $((i*10)) $i; done; exec sleep 60";
      long tqdm = g.submit("run", "-g", "0", "bash", "-c", bar);
      long file = g.submit("run", "-g", "0", "bash", "-c",
          "printf 'Step 3/9\\n'; echo '40 200' > \"$GQ_PROGRESS_FILE\"; exec sleep 60");
      g.awaitState(tqdm, "RUNNING", T);
      g.awaitState(file, "RUNNING", T);
      Gqd.await("both jobs' estimates", T, () -> {
        JsonNode eta = g.gq("eta", "--json").json();
        return eta.size() == 2 && !eta.get(0).get("current").isNull() && eta.get(0).get("current").asLong() == 50
            && !eta.get(1).get("current").isNull() && eta.get(1).get("current").asLong() == 40;
      });
      JsonNode eta = g.gq("eta", "--json").json();
      assertEquals(tqdm, eta.get(0).get("id").asLong());
      assertEquals("tqdm", eta.get(0).get("source").asText());
      assertEquals(250, eta.get(0).get("total").asLong());
      assertEquals(16, eta.get(0).get("remaining_seconds").asLong(), "tqdm's own remaining time");
      assertEquals(file, eta.get(1).get("id").asLong());
      assertEquals("progress file", eta.get(1).get("source").asText(), "the progress file wins over 'Step 3/9'");
      assertEquals(200, eta.get(1).get("total").asLong());

      Gqd.Result one = g.gq("eta", String.valueOf(file));
      assertEquals(0, one.code(), one.toString());
      assertTrue(one.out().contains("40/200 (20%)") && one.out().contains("progress file"), one.out());
      Gqd.Result ps = g.gq("ps");
      assertTrue(ps.out().contains("PROGRESS") && ps.out().contains("20% ETA 16s"), ps.out());
      assertTrue(g.gq("show", String.valueOf(tqdm)).out().contains("Progress:    50/250 (20%)"));
      g.gq("cancel", String.valueOf(tqdm), String.valueOf(file));
    }
  }

  @Test
  void theDaemonNotesProgressUnaskedSoTheFirstQuestionHasARate() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1, java.util.Map.of("GQ_PROGRESS_SAMPLE_MS", "200"))) {
      long id = g.submit("run", "-g", "0", "bash", "-c",
          "for i in $(seq 1 300); do echo \"$i 1000\" > \"$GQ_PROGRESS_FILE\"; sleep 0.2; done");
      g.awaitState(id, "RUNNING", T);
      Path file = g.data.resolve("run").resolve(id + ".progress");
      // wait on the job's own file, not on gq: the first question below must be the first one asked
      Gqd.await("the job to count to 10", T, () -> {
        try {
          return Long.parseLong(java.nio.file.Files.readString(file).trim().split(" ")[0]) >= 10;
        } catch (Exception e) {
          return false;
        }
      });
      JsonNode eta = g.gq("eta", "--json").json();
      assertEquals("progress file", eta.get(0).get("source").asText(), eta.toString());
      assertTrue(!eta.get(0).get("rate_per_second").isNull() && eta.get(0).get("rate_per_second").asDouble() > 0, eta.toString());
      g.gq("cancel", String.valueOf(id));
    }
  }
}

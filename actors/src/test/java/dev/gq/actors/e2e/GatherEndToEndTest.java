package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that needs two GPUs is not passed over for ever by younger one-GPU jobs: once it has waited
 * GQ_GATHER_AFTER_SECONDS, the GPUs that free up gather for it. Real daemon, two fake GPUs.
 */
class GatherEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void aTwoGpuJobStartsBeforeTheYoungerOneGpuJobsAreAllThrough() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2, Map.of("GQ_GATHER_AFTER_SECONDS", "1"))) {
      long first = g.submit("-g", "1", "sleep", "2");
      g.awaitState(first, "RUNNING", T);
      long wide = g.submit("-g", "2", "true");
      List<Long> narrow = new ArrayList<>();
      for (int i = 0; i < 8; i++) narrow.add(g.submit("-g", "1", "sleep", "1"));
      Gqd.await("job " + wide + " to say GPUs gather for it", T,
          () -> g.gq("show", String.valueOf(wide)).out().contains("GPUs gather for it"));
      JsonNode done = g.awaitState(wide, "DONE", T);
      Instant wideStart = Instant.parse(done.get("start_time").asText());
      int after = 0;
      for (long id : narrow) {
        JsonNode j = g.awaitState(id, "DONE", T);
        if (Instant.parse(j.get("start_time").asText()).isAfter(wideStart)) after++;
      }
      assertTrue(after > 0, "every younger one-GPU job started before job " + wide + " (started " + wideStart + ")");
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU freed by an ending job goes to the next job only once every process of the job is gone,
 * and only on a reading taken after that: with the real daemon, real jobs and fake GPUs.
 */
class HandOverEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  /**
   * A detached ({@code setsid}) child opens its context 0.2 s before the job's main process exits
   * and computes on for 2 s. The GPU readings come every 10 s, so none taken before the main
   * process exits shows the child: the GPU may only go to the next job once the child is gone.
   */
  @Test
  void detachedChildOpeningItsContextJustBeforeTheJobExitsKeepsTheJobAndItsGpu() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1, Map.of("GQ_POLL_INTERVAL_MS", "10000"))) {
      Path childEnd = tmp.resolve("child-ended");
      long first = g.submit("-g", "1", "bash", "-c",
          "setsid bash -c 'echo 100 > \"$GQ_FAKE_NVML/procs/$GQ_GPU_UUIDS/$$\"; sleep 2; date +%s%N > "
              + childEnd + "' & sleep 0.2");
      g.awaitState(first, "RUNNING", T);
      long second = g.submit("-g", "1", "bash", "-c", "date +%s%N");
      JsonNode done = g.awaitState(second, "DONE", T);
      assertTrue(Files.exists(childEnd), "job " + second + " ran and ended while job " + first
          + "'s detached child still computed on the GPU: " + done + "; job " + first + ": " + g.job(first));
      JsonNode firstJob = g.awaitState(first, "DONE", T);
      long childEndedNs = Long.parseLong(Files.readString(childEnd).strip());
      long secondStartedNs = Long.parseLong(Jobs.log(g, second).strip());
      assertTrue(secondStartedNs > childEndedNs, "job " + second + " started "
          + (childEndedNs - secondStartedNs) / 1_000_000 + " ms before job " + first + "'s detached child ended: "
          + done);
      assertFalse(epochNanos(firstJob.get("end_time").asText()) < childEndedNs,
          "job " + first + " ended before its detached child: " + firstJob);
    }
  }

  private static long epochNanos(String iso) {
    Instant at = Instant.parse(iso);
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }
}

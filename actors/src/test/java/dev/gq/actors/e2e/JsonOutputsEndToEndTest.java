package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.cli.JsonOutputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of {@code --json} output from the real daemon, with real jobs in several states, is
 * valid against its schema in docs/schemas ({@link Gqd} checks each JSON answer; this test makes sure
 * each kind is seen at least once, in its interesting shapes).
 */
class JsonOutputsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  /** Runs a command line that asks for JSON; Gqd has checked it against its schema when this returns. */
  private static JsonNode json(Gqd g, String... argv) {
    assertTrue(JsonOutputs.jsonCommand(List.of(argv)) != null, "asks for JSON: " + List.of(argv));
    Gqd.Result r = g.gq(argv);
    assertEquals(0, r.code(), r.toString());
    return r.json();
  }

  @Test
  void everyJsonOutputMatchesItsSchema() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2)) {
      String holdGpu = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 100 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done; sleep 30";
      long running = json(g, "-g", "1", "--json", "--key", "holder", "--time", "1h", "bash", "-c", holdGpu).get("id").asLong();
      long failed = json(g, "run", "-g", "0", "--json", "--group", "sweep", "--key", "bad", "bash", "-c", "exit 3")
          .get("id").asLong();
      Files.writeString(g.work.resolve("train.sh"), "#gq --gpus=0\n#gq --retries=1\ntrue\n");
      long done = json(g, "submit", "--json", "--group", "sweep", "--after", String.valueOf(failed), "train.sh")
          .get("id").asLong();
      Files.writeString(g.work.resolve("cells.txt"), "true\n{\"argv\": [\"true\"], \"gpus\": 0, \"key\": \"holder\"}\n"
          + "{\"argv\": [\"sleep\", \"30\"], \"gpus\": 2, \"after_ok\": " + running + "}\n");
      JsonNode batch = json(g, "submit", "--batch", "cells.txt", "--json", "-g", "0", "--group", "sweep");
      assertEquals(3, batch.size());
      assertTrue(batch.get(1).get("skipped").asBoolean(), batch.toString());
      g.gq("hold", "--group", "paused");

      g.awaitState(running, "RUNNING", T);
      g.awaitState(done, "DONE", T);
      Gqd.await("GPU 0 or 1 to show the job's process", T, () -> gpuWithProcess(g));
      assertEquals(failed, json(g, "show", "--json", String.valueOf(failed)).get("id").asLong());
      assertEquals(5, json(g, "ps", "--all", "--json").size());
      assertEquals(2, json(g, "groups", "--json").size(), "paused (held by hand) and sweep");
      Gqd.Result events = g.gq("events", "--json");
      assertEquals(0, events.code(), events.toString());
      assertTrue(events.out().lines().count() > 10, events.out());
      g.gq("cancel", "-y", "--group", "sweep");
      g.gq("cancel", String.valueOf(running));
    }
  }

  @Test
  void aRefusedOrMisusedCommandUnderJsonPrintsItsErrorAsJson() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      // Gqd checks each error object against docs/schemas/error.schema.json and its exit_code against the exit code
      assertJsonError(g, 1, "job 999 does not exist", "show", "999", "--json");
      assertJsonError(g, 1, "job 999", "preempt", "--json", "999");
      assertJsonError(g, 2, "--bogus", "ps", "--json", "--bogus");
      assertJsonError(g, 2, "--limit", "ps", "--limit", "x", "--json");
      assertJsonError(g, 2, "-g", "-g", "x", "--json", "true");
      Gqd.Result plain = g.gq("show", "999");
      assertEquals(1, plain.code());
      assertEquals("", plain.out(), "without --json stdout stays empty");
    }
  }

  private static void assertJsonError(Gqd g, int code, String says, String... argv) {
    Gqd.Result r = g.gq(argv);
    assertEquals(code, r.code(), r.toString());
    JsonNode e = r.json();
    assertEquals(code, e.get("exit_code").asInt(), r.out());
    assertTrue(e.get("error").asText().contains(says), r.out());
    assertEquals(1, r.out().strip().lines().count(), "one line: " + r.out());
    assertTrue(r.err().startsWith("gq: " + e.get("error").asText()), "stderr keeps the line: " + r.err());
  }

  private static boolean gpuWithProcess(Gqd g) {
    for (JsonNode gpu : json(g, "gpu", "--json")) if (!gpu.get("processes").isEmpty()) return true;
    return false;
  }
}

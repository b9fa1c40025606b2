package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq events} reads what the real daemon stored: a job's life, filters, a cancelled waiting
 * job. The tests that read only their own jobs' events share one daemon ({@link SharedDaemons}).
 */
class EventsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @RegisterExtension static final SharedDaemons SHARED = new SharedDaemons();

  @TempDir Path tmp;

  @Test
  void aJobsLifeIsSubmittedReservedLaunchedExitedInOrder() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long id = g.submit("-g", "1", "bash", "-c", "exit 3");
    g.awaitState(id, "FAILED", T);
    List<JsonNode> events = events(g, "--job", String.valueOf(id));
    assertEquals(List.of("JobSubmitted", "JobReserved", "JobLaunched", "JobExited"), types(events));
    for (int i = 0; i < events.size(); i++) {
      assertEquals(id, events.get(i).get("job_id").asLong());
      if (i > 0) assertTrue(events.get(i).get("seq").asLong() > events.get(i - 1).get("seq").asLong(), events.toString());
    }
    JsonNode submitted = events.get(0).get("fields");
    assertEquals("exit 3", submitted.get("argv").get(2).asText());
    assertEquals(1, submitted.get("requested_gpus").asInt());
    assertFalse(submitted.has("env"), submitted.toString());
    assertEquals(0, events.get(1).get("fields").get("gpus").get(0).asInt());
    assertEquals(Gqd.uuid(0), events.get(1).get("fields").get("gpu_uuids").get(0).asText());
    assertTrue(events.get(2).get("fields").get("pid").asLong() > 1, events.get(2).toString());
    assertEquals(3, events.get(3).get("fields").get("exit_code").asInt());
    Gqd.Result text = g.gq("events", "--job", String.valueOf(id));
    assertTrue(text.out().contains(" exit_code=3"), text.out());
    assertFalse(text.out().contains(g.fake.toString()), "the job's environment (GQ_FAKE_NVML) is never shown");
  }

  @Test
  void sinceLeavesOutWhatWasStoredBefore() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long first = g.submit("-g", "0", "true");
      g.awaitState(first, "DONE", T);
      List<JsonNode> before = events(g);
      Instant after = Instant.parse(before.get(before.size() - 1).get("time").asText()).plusMillis(1);
      long second = g.submit("-g", "0", "true");
      g.awaitState(second, "DONE", T);
      List<JsonNode> since = events(g, "--since", after.toString());
      assertEquals(List.of("JobSubmitted", "JobReserved", "JobLaunched", "JobExited"), types(since));
      assertTrue(since.stream().allMatch(e -> e.get("job_id").asLong() == second), since.toString());
      assertEquals(before.size() + since.size(), events(g, "--since", "1h").size());
      assertEquals(List.of(), events(g, "--since", "2999-01-01"));
      Gqd.Result bad = g.gq("events", "--since", "last tuesday");
      assertEquals(2, bad.code());
      assertTrue(bad.err().startsWith("gq: invalid time 'last tuesday' for --since; use "), bad.err());
    }
  }

  @Test
  void aCancelledWaitingJobIsSubmittedThenCancelled() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long running = g.submit("-g", "1", "sleep", "30");
    g.awaitState(running, "RUNNING", T);
    long waiting = g.submit("-g", "1", "true");
    assertEquals(0, g.gq("cancel", String.valueOf(waiting)).code());
    g.awaitState(waiting, "CANCELLED", T);
    assertEquals(List.of("JobSubmitted", "JobCancelled"), types(events(g, "--job", String.valueOf(waiting))));
    List<JsonNode> last = events(g, "--limit", "1");
    assertEquals("JobCancelled", last.get(0).get("type").asText());
    g.gq("cancel", "-y", String.valueOf(running));
    g.awaitState(running, "CANCELLED", T);
  }

  /** {@code gq events --json ARGS...}, one parsed object per line. */
  private static List<JsonNode> events(Gqd g, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("events", "--json"));
    argv.addAll(List.of(args));
    Gqd.Result r = g.gq(argv.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.out().lines().toList()) out.add(Gqd.JSON.readTree(line));
    return out;
  }

  private static List<String> types(List<JsonNode> events) {
    return events.stream().map(e -> e.get("type").asText()).toList();
  }
}

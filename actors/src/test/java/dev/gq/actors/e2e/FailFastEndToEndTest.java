package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep of a command that cannot be run, on four fake GPUs: fail-fast holds it after its count
 * of failures and no more, the hold names the cause, and a retry of the group releases it whether
 * or not the sweep was submitted again first.
 */
class FailFastEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String CAUSE = "cannot run '%s': No such file or directory";

  @TempDir Path tmp;

  /** Job states over the whole history, counted. */
  private static Map<String, Integer> states(Gqd g) {
    Map<String, Integer> n = new TreeMap<>();
    for (JsonNode j : g.gq("ps", "--all", "--json").json()) n.merge(j.get("state").asText(), 1, Integer::sum);
    return n;
  }

  /** Waits until the group is held and none of its jobs is starting or running any more. */
  private static JsonNode awaitHeldAndSettled(Gqd g, String group) throws InterruptedException {
    Gqd.await("group " + group + " held with nothing starting or running", T, () -> {
      Map<String, Integer> s = states(g);
      JsonNode gr = g.gq("groups", "--json").json().get(0);
      return gr.get("held").asBoolean() && !s.containsKey("STARTING") && !s.containsKey("RUNNING");
    });
    return g.gq("groups", "--json").json().get(0);
  }

  @Test
  void twentyCellsOfAMistypedCommandOnFourGpusFailOnlyTheCountBeforeTheGroupIsHeld() throws Exception {
    try (Gqd g = Gqd.start(tmp, 4)) {
      List<Long> ids = new ArrayList<>();
      g.gq("hold", "--all"); // all twenty wait when the four GPUs come free at once
      for (int i = 0; i < 20; i++) ids.add(g.submit("-g", "1", "--group", "sw", "/nonexistent/trainer", "--lr", "0." + i));
      g.gq("release", "--all");
      JsonNode group = awaitHeldAndSettled(g, "sw");
      assertEquals(Map.of("FAILED", 3, "WAITING", 17), states(g));
      String cause = CAUSE.formatted("/nonexistent/trainer");
      assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3): " + cause, group.get("hold_reason").asText());
      JsonNode first = g.job(ids.get(0));
      assertEquals(127, first.get("exit_code").asInt());
      assertEquals(cause, first.get("failure_reason").asText());
      assertTrue(Jobs.log(g, ids.get(0)).contains("gq: " + cause), Jobs.log(g, ids.get(0)));
      String ps = g.gq("ps").out();
      assertTrue(ps.contains("HELD"), ps);
      String show = g.gq("show", String.valueOf(ids.get(19))).out();
      assertTrue(show.contains("group sw is held: 3 jobs in a row failed within 60 s of starting (1, 2, 3): " + cause), show);
      String events = g.gq("events").out();
      assertTrue(events.contains(cause), events);
    }
  }

  @Test
  void retryingTheGroupAfterTheSweepWasSubmittedAgainReleasesItAndEveryCellRuns() throws Exception {
    try (Gqd g = Gqd.start(tmp, 4)) {
      Path trainer = g.work.resolve("train.sh");
      g.gq("hold", "--all");
      for (int i = 0; i < 8; i++) g.submit("-g", "1", "--group", "sw", "--key", "cell-" + i, "./train.sh");
      g.gq("release", "--all");
      awaitHeldAndSettled(g, "sw");
      assertEquals(Map.of("FAILED", 3, "WAITING", 5), states(g));

      Files.writeString(trainer, "#!/bin/sh\nexit 0\n");
      Files.setPosixFilePermissions(trainer, PosixFilePermissions.fromString("rwx------"));
      List<String> again = new ArrayList<>();
      for (int i = 0; i < 8; i++) again.add(g.gq("-g", "1", "--group", "sw", "--key", "cell-" + i, "./train.sh").out());
      assertEquals(3, again.stream().filter(o -> o.startsWith("Submitted job")).count(), again.toString());
      assertEquals(5, again.stream().filter(o -> o.contains("is already HELD")).count(), again.toString());

      Gqd.Result retry = g.gq("retry", "--group", "sw", "--failed");
      assertEquals(0, retry.code(), retry.toString());
      assertEquals("No failed jobs match.\nReleased the hold on group sw; its waiting jobs may start.\n", retry.out());
      Gqd.Result waited = g.gq("wait", "--group", "sw", "--timeout", "1m");
      assertEquals(0, waited.code(), waited.toString());
      assertEquals(Map.of("DONE", 8, "FAILED", 3), states(g));
    }
  }
}

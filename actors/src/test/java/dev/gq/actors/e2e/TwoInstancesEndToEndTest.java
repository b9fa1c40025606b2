package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two gq daemons on one machine (separate data directories, the same GPUs) never run two jobs on
 * one GPU at a time: each job holds its GPU's machine-wide lease from before its launch until its
 * last process ends, whichever daemon lives. Real daemons, real jobs, one fake GPU both read.
 */
class TwoInstancesEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);
  /** Each job logs its start and end (nanoseconds since the epoch) around a short sleep. */
  private static final String TIMED = "echo start $(date +%s%N); sleep 0.4; echo end $(date +%s%N)";

  @TempDir Path tmp;

  private record Span(String who, long start, long end) {}

  @Test
  void burstsToTwoDaemonsOnOneGpuNeverOverlap() throws Exception {
    // a window between each reservation and its launch, for the two daemons to race in
    Map<String, String> slow = Map.of("GQ_TEST_LAUNCH_DELAY_MS", "300");
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1, slow);
        Gqd b = Gqd.start(tmp.resolve("b"), 1, with(slow, "GQ_FAKE_NVML", tmp.resolve("a/fake").toString()))) {
      List<Long> ofA = new ArrayList<>(), ofB = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ofA.add(a.submit("-g", "1", "bash", "-c", TIMED));
        ofB.add(b.submit("-g", "1", "bash", "-c", TIMED));
      }
      List<Span> spans = new ArrayList<>();
      for (long id : ofA) spans.add(span("a/" + id, a, a.awaitState(id, "DONE", T), id));
      for (long id : ofB) spans.add(span("b/" + id, b, b.awaitState(id, "DONE", T), id));
      spans.sort(Comparator.comparingLong(Span::start));
      for (int i = 1; i < spans.size(); i++)
        assertTrue(spans.get(i).start() > spans.get(i - 1).end(),
            "two jobs on GPU 0 at once: " + spans.get(i - 1) + " and " + spans.get(i) + "\nall: " + spans);
    }
  }

  @Test
  void aGpuTheOtherDaemonsJobHoldsShowsItsHolderAndStaysHeldAfterThatDaemonIsKilled() throws Exception {
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1);
        Gqd b = Gqd.start(tmp.resolve("b"), 1, Map.of("GQ_FAKE_NVML", tmp.resolve("a/fake").toString()))) {
      Path release = tmp.resolve("release");
      long first = a.submit("-g", "1", "bash", "-c",
          "echo start $(date +%s%N); while [ ! -e " + release + " ]; do sleep 0.05; done; echo end $(date +%s%N)");
      a.awaitState(first, "RUNNING", T);
      Gqd.await("the other daemon to see the GPU held", T, () -> "EXTERNAL".equals(b.gpuState(0)));
      JsonNode gpu = b.gpus().get(0);
      String user = System.getProperty("user.name");
      assertEquals("job " + first + " of the gq in " + a.data, gpu.get("held_by").asText(), gpu.toString());

      Path firstLog = Path.of(a.job(first).get("log_path").asText());
      a.killDaemon(); // the job runs on with no daemon; its processes hold the lease
      long second = b.submit("-g", "1", "bash", "-c", TIMED);
      Gqd.await("job " + second + " to say why it waits", T,
          () -> b.gq("show", String.valueOf(second)).out().contains("job " + first + " of the gq in"));
      assertEquals("WAITING", b.state(second), "started while the killed daemon's job still ran on the GPU");
      java.nio.file.Files.writeString(release, "");
      JsonNode done = b.awaitState(second, "DONE", T);
      Gqd.await("job " + first + " to end", T, () -> read(firstLog).contains("end "));
      long firstEnd = endOf(read(firstLog));
      assertTrue(span("b", b, done, second).start() > firstEnd, "started before " + user + "'s first job ended");
    }
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new java.util.HashMap<>(m);
    out.put(k, v);
    return out;
  }

  private static Span span(String who, Gqd g, JsonNode job, long id) throws java.io.IOException {
    String log = Jobs.log(g, id);
    long start = 0;
    for (String line : log.lines().toList()) if (line.startsWith("start ")) start = Long.parseLong(line.substring(6).strip());
    assertTrue(start > 0, who + ": no start in its log: " + log + " / " + job);
    return new Span(who, start, endOf(log));
  }

  private static String read(Path p) {
    try {
      return java.nio.file.Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static long endOf(String log) {
    for (String line : log.lines().toList()) if (line.startsWith("end ")) return Long.parseLong(line.substring(4).strip());
    throw new AssertionError("no end in the log: " + log);
  }
}

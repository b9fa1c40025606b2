package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sweeps against the real daemon: keys under a race, fail-fast holds, dependencies, retries and time limits. */
class SweepEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);
  /** A cell that fails until the file "ok" exists in the work directory. */
  private static final String[] CELL = {"-g", "1", "--group", "sw", "bash", "-c", "[ -e ok ] || exit 1"};

  @TempDir Path tmp;

  private static String[] with(String[] head, String... tail) {
    String[] out = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, out, head.length, tail.length);
    return out;
  }

  @Test
  void twoSubmittersRacingOverTheSameTwentyKeysLeaveExactlyTwentyJobs() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1); ExecutorService pool = Executors.newFixedThreadPool(2)) {
      CountDownLatch go = new CountDownLatch(1);
      Callable<List<Gqd.Result>> submitter = () -> {
        go.await();
        List<Gqd.Result> rs = new ArrayList<>();
        for (int i = 0; i < 20; i++) rs.add(g.gq("-g", "0", "--key", "cell-" + i, "true"));
        return rs;
      };
      Future<List<Gqd.Result>> a = pool.submit(submitter), b = pool.submit(submitter);
      go.countDown();
      List<Gqd.Result> all = new ArrayList<>(a.get());
      all.addAll(b.get());
      all.forEach(r -> assertEquals(0, r.code(), r.toString()));
      assertEquals(20, all.stream().filter(r -> r.out().startsWith("Submitted job")).count());
      assertEquals(20, all.stream().filter(r -> r.out().startsWith("Skipped: key")).count());
      assertEquals(20, g.gq("ps", "--all", "--json").json().size());
    }
  }

  @Test
  void threeQuickFailuresHoldTheGroupAcrossARestartUntilARetryReleasesIt() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) ids.add(g.submit(CELL));
      for (int i = 0; i < 3; i++) g.awaitState(ids.get(i), "FAILED", T);
      Gqd.await("the hold", T, () -> g.gq("show", String.valueOf(ids.get(3))).out().contains("is held"));
      String show = g.gq("show", String.valueOf(ids.get(3))).out();
      assertTrue(show.contains("3 jobs in a row failed within 60 s of starting (1, 2, 3)"), show);
      g.stopDaemon();
      g.startDaemon();
      // the restarted daemon's plan: both still held
      g.awaitWaitReason(ids.get(3), "group sw is held");
      g.awaitWaitReason(ids.get(4), "group sw is held");
      assertEquals("WAITING", g.state(ids.get(3)), "the hold survives the restart");
      assertEquals("WAITING", g.state(ids.get(4)));
      Files.writeString(g.work.resolve("ok"), "");
      Gqd.Result retry = g.gq("retry", "--group", "sw", "--failed");
      assertEquals(0, retry.code(), retry.toString());
      assertTrue(retry.out().contains("Released the hold on group sw"), retry.out());
      for (long id : ids.subList(3, 5)) g.awaitState(id, "DONE", T);
      for (int i = 0; i < 3; i++) assertEquals(ids.get(i), g.awaitState(6 + i, "DONE", T).get("retry_of").asLong());
    }
  }

  @Test
  void aSuccessBreaksTheRunOfFailures() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long a = g.submit(CELL), b = g.submit(CELL);
      long ok = g.submit(with(new String[] {"-g", "1", "--group", "sw"}, "true"));
      long c = g.submit(CELL), d = g.submit(CELL);
      long last = g.submit(with(new String[] {"-g", "1", "--group", "sw"}, "true"));
      for (long id : List.of(a, b, c, d)) g.awaitState(id, "FAILED", T);
      g.awaitState(ok, "DONE", T);
      g.awaitState(last, "DONE", T);
    }
  }

  @Test
  void afterWaitsForAnyEndAndAfterOkIsCancelledWhenItsJobFails() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path go = tmp.resolve("go");
      long parent = g.submit("-g", "0", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 3");
      long any = g.submit("-g", "0", "--after", String.valueOf(parent), "true");
      long ok = g.submit("-g", "0", "--after-ok", String.valueOf(parent), "true");
      g.awaitState(parent, "RUNNING", T);
      assertTrue(g.gq("show", String.valueOf(any)).out().contains("Waiting for: job " + parent), g.gq("show", String.valueOf(any)).out());
      assertEquals("WAITING", g.state(ok));
      Files.writeString(go, "");
      g.awaitState(parent, "FAILED", T);
      g.awaitState(any, "DONE", T);
      JsonNode cancelled = g.awaitState(ok, "CANCELLED", T);
      assertTrue(cancelled.get("failure_reason").asText().contains("job " + parent), cancelled.toString());
      long later = g.submit("-g", "0", "--after-ok", String.valueOf(any), "true");
      g.awaitState(later, "DONE", T);
      Gqd.Result unknown = g.gq("-g", "0", "--after", "999", "true");
      assertEquals(1, unknown.code());
      assertTrue(unknown.err().contains("job 999 does not exist"), unknown.toString());
      Gqd.Result never = g.gq("-g", "0", "--after-ok", String.valueOf(parent), "true");
      assertEquals(1, never.code(), "a job that needs a failed job to succeed would never start");
    }
  }

  @Test
  void aFailedJobWithRetriesLeftRunsAgainAsANewAttempt() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long first = g.submit("-g", "0", "--retries", "2", "bash", "-c",
          "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; [ $n -ge 1 ]");
      g.awaitState(first, "FAILED", T);
      JsonNode second = g.awaitState(first + 1, "DONE", T);
      assertEquals(first, second.get("retry_of").asLong());
      long marker = g.awaitMarkerJob(); // a retry would be written with the end, before the marker
      long others = 0;
      for (JsonNode j : g.gq("ps", "--all", "--json").json()) if (j.get("id").asLong() != marker) others++;
      assertEquals(2, others, "a success uses no further retry");
    }
  }

  @Test
  void aJobPastItsTimeLimitEndsTimeout() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long id = g.submit("-g", "1", "--time", "1s", "sleep", "60");
      JsonNode job = g.awaitState(id, "TIMEOUT", T);
      assertTrue(job.get("failure_reason").asText().contains("exceeded its time limit of 1s"), job.toString());
      assertEquals("FREE", g.gpuState(0));
    }
  }

  @Test
  void aJobWhoseLimitPassedWhileTheDaemonWasDownIsStoppedWhenItComesBack() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long id = g.submit("-g", "1", "--time", "2s", "sleep", "60");
      g.awaitState(id, "RUNNING", T);
      g.stopDaemon();
      Thread.sleep(2500);
      g.startDaemon();
      JsonNode job = g.awaitState(id, "TIMEOUT", T);
      assertTrue(job.get("failure_reason").asText().contains("exceeded its time limit of 2s"), job.toString());
    }
  }

  @Test
  void aThousandLineBatchIsSubmittedWholeAndARerunSkipsEveryLine() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      g.gq("hold", "--all");
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 1000; i++) lines.append("{\"argv\": [\"true\"], \"key\": \"cell-").append(i).append("\"}\n");
      Path batch = g.work.resolve("cells.jsonl");
      Files.writeString(batch, lines);
      long t0 = System.nanoTime();
      Gqd.Result first = g.gq("submit", "-g", "0", "--group", "big", "--batch", batch.toString());
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertEquals(0, first.code(), first.toString());
      System.out.println("1,000-line batch submit took " + ms + " ms");
      assertEquals(1000, g.gq("ps", "--all", "--json").json().size());
      Gqd.Result again = g.gq("submit", "-g", "0", "--group", "big", "--batch", batch.toString());
      assertEquals(0, again.code(), again.toString());
      assertEquals(1000, g.gq("ps", "--all", "--json").json().size(), "every key is taken: nothing new");
    }
  }
}

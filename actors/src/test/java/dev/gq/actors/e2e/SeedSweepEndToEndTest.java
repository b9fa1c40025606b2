package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's sweep (3 seeds x 3 cells under GQ_GROUP with keys), re-runs, group counts, retries and batches. */
class SeedSweepEndToEndTest {
  private static final String GROUP = "xsum-ablation";
  private static final String[] CELLS = {"kl", "kl-enc_hddn", "kl-enc_self"};

  @TempDir Path tmp;

  /** The README's loop: one submit per cell; returns each submit's output. */
  private static List<String> sweep(Gqd g) {
    List<String> outs = new ArrayList<>();
    for (int seed = 1; seed <= 3; seed++) {
      for (String cell : CELLS) {
        Gqd.Result r = g.gq("-g", "1", "--key", "xsum/" + cell + "/seed" + seed, "bash", "trainer.sh", cell, String.valueOf(seed));
        assertEquals(0, r.code(), r.toString());
        outs.add(r.out());
      }
    }
    return outs;
  }

  private static long submitted(List<String> outs) {
    return outs.stream().filter(o -> o.startsWith("Submitted job")).count();
  }

  @Test
  void reRunningTheSweepSubmitsNothingNewThenOnlyTheCellThatFailed() throws Exception {
    try (Gqd g = Gqd.start(tmp, 2, Map.of("GQ_GROUP", GROUP))) {
      Files.writeString(g.work.resolve("trainer.sh"), "[ ! -e \"fail-$1-$2\" ]\n");
      Files.writeString(g.work.resolve("fail-kl-2"), "");
      g.gq("hold", "--all");
      assertEquals(9, submitted(sweep(g)));
      List<String> again = sweep(g);
      assertEquals(0, submitted(again), again.toString());
      assertTrue(again.stream().allMatch(o -> o.startsWith("Skipped: key 'xsum/")), again.toString());
      g.gq("release", "--all");

      Gqd.Result waited = g.gq("wait", "--group", GROUP, "--timeout", "2m");
      assertEquals(1, waited.code(), waited.toString());
      assertEquals(GROUP + ": 8 DONE, 1 FAILED\n", waited.out());

      Files.delete(g.work.resolve("fail-kl-2"));
      List<String> third = sweep(g);
      assertEquals(1, submitted(third), third.toString());
      assertTrue(third.get(3).startsWith("Submitted job"), "the kl cell of seed 2: " + third);
      assertEquals(0, g.gq("wait", "--group", GROUP, "--timeout", "2m").code());

      JsonNode group = g.gq("groups", "--json").json().get(0);
      assertEquals(GROUP, group.get("group").asText());
      assertEquals(9, group.get("counts").get("DONE").asInt());
      assertEquals(0, group.get("counts").get("FAILED").asInt());
      assertEquals(1, group.get("retried").asInt());
      assertEquals("No failed jobs match.\n", g.gq("retry", "--group", GROUP, "--failed").out());
    }
  }

  @Test
  void retryOfAGroupsFailedJobsQueuesTheLatestAttemptsAgain() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long ok = g.submit("-g", "0", "--group", "r", "true");
      long bad = g.submit("-g", "0", "--group", "r", "bash", "-c", "[ -e fixed ]");
      assertEquals(1, g.gq("wait", "--group", "r", "--timeout", "1m").code());
      Files.writeString(g.work.resolve("fixed"), "");
      Gqd.Result r = g.gq("retry", "--group", "r", "--failed");
      assertEquals(0, r.code(), r.toString());
      assertTrue(r.out().startsWith("Retried 1 job: " + bad + "->"), r.out());
      assertEquals(0, g.gq("wait", "--group", "r", "--timeout", "1m").code());
      Gqd.Result summary = g.gq("ps", "--group", "r");
      assertTrue(summary.out().endsWith("r: 2 DONE (plus 1 earlier attempt, since retried)\n"), summary.out());
      Gqd.Result skipped = g.gq("retry", String.valueOf(ok));
      assertTrue(skipped.out().startsWith("Skipped 1 job:\n  " + ok + ": "), skipped.out());
    }
  }

  @Test
  void aThousandLinesOnStandardInputAreOneBatchAndABadLineSubmitsNothing() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      g.gq("hold", "--all");
      StringBuilder lines = new StringBuilder("# seeds\n");
      for (int i = 0; i < 1000; i++) lines.append("python train.py --seed ").append(i).append(" --name 'run ").append(i).append("'\n");
      long t0 = System.nanoTime();
      Gqd.Result r = StdinGq.run(g, lines.toString(), "submit", "-g", "1", "--group", "big", "--batch", "-");
      System.out.println("1,000 lines on standard input submitted in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
      assertEquals(0, r.code(), r.toString());
      assertEquals("Submitted 1000 jobs: 1-1000\n", r.out());
      assertEquals(1000, g.gq("groups", "--json").json().get(0).get("counts").get("WAITING").asInt());
      JsonNode last = g.job(1000);
      assertEquals("run 999", last.get("argv").get(5).asText());

      Gqd.Result bad = StdinGq.run(g, "true\ntrue $HOME\n", "submit", "--batch", "-");
      assertEquals(1, bad.code());
      assertTrue(bad.err().startsWith("gq: batch line 2: '$' and '`' would be expanded by a shell"), bad.err());
      assertEquals(1000, g.gq("ps", "--state", "waiting", "--json").json().size(), "nothing of the bad batch was queued");
    }
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mixed cards: two 24 GB RTX 4090s (GPUs 0, 1) and two 80 GB H100s (GPUs 2, 3). A job asking for
 * 40 GB goes only to an H100 and waits, saying why, while both are busy though the 4090s are free; a
 * job asking for a 4090 gets one; a job too big for every card and an unknown type are refused at
 * submit in one line each. Real daemon, fake GPUs.
 */
class VramEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @Test
  void aBigJobGoesOnlyToTheBigCardsAndWaitsForThemWhileTheSmallOnesAreFree() throws Exception {
    try (Gqd g = Gqd.start(tmp, 4)) {
      Files.writeString(g.fake.resolve("gpus"), "0 " + Gqd.uuid(0) + " 24576 Fake RTX 4090\n1 " + Gqd.uuid(1)
          + " 24576 Fake RTX 4090\n2 " + Gqd.uuid(2) + " 81920 Fake H100\n3 " + Gqd.uuid(3) + " 81920 Fake H100\n");
      Gqd.await("the mixed cards to be read", T, () -> g.gpus().get(3).get("name").asText().equals("Fake H100")
          && g.gpus().get(0).get("total_memory").asLong() == 24576L << 20);
      String table = g.gq("gpu").out();
      assertTrue(table.contains("Fake RTX 4090") && table.contains("0.0/80.0G"), table);

      long both = g.submit("-g", "2", "--gpu-type", "h100", "bash", "-c", "while [ ! -e stop ]; do sleep 0.1; done");
      assertEquals(List.of(2, 3), indices(g.awaitState(both, "RUNNING", T)));
      long big = g.submit("-g", "1", "--vram", "40G", "bash", "-c", "echo \"$GQ_VRAM\" > vram.txt");
      g.awaitWaitReason(big, "needs 1 GPU with ≥ 37.3 GiB: GPUs 2,3 fit, both busy (GPU 2: job " + both + "; GPU 3: job " + both + ")");
      assertEquals("WAITING", g.state(big));
      assertEquals("FREE", g.gpuState(0));
      assertEquals("FREE", g.gpuState(1));

      long small = g.submit("-g", "1", "--gpu-type", "4090", "true");
      List<Integer> got = indices(g.awaitState(small, "DONE", T));
      assertTrue(got.equals(List.of(0)) || got.equals(List.of(1)), "a 4090: " + got);

      Gqd.Result tooBig = g.gq("run", "--vram", "100G", "true");
      assertEquals(1, tooBig.code());
      assertEquals("gq: --vram 93.1 GiB: the largest GPU here has 80.0 GiB (GPU 2, Fake H100); ask for at most --vram 80.0GiB\n", tooBig.err());
      Gqd.Result unknown = g.gq("run", "--gpu-type", "A100", "true");
      assertEquals(1, unknown.code());
      assertEquals("gq: --gpu-type A100: no GPU here is A100 (here: Fake RTX 4090, Fake H100); name one of those,"
          + " or leave out --gpu-type\n", unknown.err());

      Files.writeString(g.work.resolve("stop"), "");
      g.awaitState(both, "DONE", T);
      List<Integer> bigGot = indices(g.awaitState(big, "DONE", T));
      assertTrue(bigGot.equals(List.of(2)) || bigGot.equals(List.of(3)), "an H100: " + bigGot);
      assertEquals("38147", Files.readString(g.work.resolve("vram.txt")).strip(), "GQ_VRAM: the MiB asked for");
      assertEquals(38147, g.job(big).get("vram_mib").asLong());
    }
  }

  private static List<Integer> indices(JsonNode job) {
    List<Integer> out = new ArrayList<>();
    job.get("gpu_indices").forEach(i -> out.add(i.asInt()));
    return out;
  }
}

package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.core.gpu.MemoryText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared jobs on mixed cards: an 80 GB H100 (GPU 0), a 24 GB RTX 4090 (GPU 1) and an H100 an
 * outside process computes on (GPU 2). Four --share --vram 20G H100 jobs sit together on GPU 0 and a
 * fifth waits saying what is left (never on GPU 2); an exclusive job waits for GPU 0 to empty; a
 * shared job of any type goes to the 4090; a job using more than it declared stops further placements
 * on its GPU until it uses less. Real daemon, fake GPUs (each job states its memory in the fake
 * folder).
 */
class ShareEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  // opens a "context" of $MIB MiB on each of its GPUs, notes its pid, and runs until ./stop exists
  private static final String SHARED_JOB = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 1000 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done;"
      + " echo $$ > pid-$GQ_JOB_ID; echo \"$GQ_VRAM\" > vram-$GQ_JOB_ID; while [ ! -e stop ]; do sleep 0.1; done";

  @TempDir Path tmp;

  @Test
  void smallJobsShareACardWithinItsMemoryAndNeverBesideAnExclusiveJobOrAnOutsideProcess() throws Exception {
    try (Gqd g = Gqd.start(tmp, 3)) {
      Files.writeString(g.fake.resolve("gpus"), "0 " + Gqd.uuid(0) + " 81920 Fake H100\n1 " + Gqd.uuid(1)
          + " 24576 Fake RTX 4090\n2 " + Gqd.uuid(2) + " 81920 Fake H100\n");
      Files.createDirectories(g.fake.resolve("procs").resolve(Gqd.uuid(2)));
      Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(2)).resolve("999999"), "ghost");
      Path notes = g.work.resolve("notes");
      Gqd.Result added = g.gq("notify", "add", "command", "--on", "over_memory", "--", "/bin/sh", "-c",
          "echo \"$GQ_EVENT $GQ_JOB_ID\" >> " + notes);
      assertEquals(0, added.code(), added.toString());
      Gqd.await("the mixed cards to be read", T, () -> g.gpuState(2).equals("EXTERNAL")
          && g.gpus().get(1).get("total_memory").asLong() == 24576L << 20);

      List<Long> four = new ArrayList<>();
      for (int i = 0; i < 4; i++) four.add(g.submit("-g", "1", "--share", "--vram", "20G", "--gpu-type", "H100", "bash", "-c", SHARED_JOB));
      for (long id : four) assertEquals(List.of(0), indices(g.awaitState(id, "RUNNING", T)), "job " + id);
      long left = 81920 - 1024 - 4 * 19074;
      long fifth = g.submit("-g", "1", "--share", "--vram", "20G", "--gpu-type", "H100", "bash", "-c", SHARED_JOB);
      g.awaitWaitReason(fifth, "needs 18.6 GiB on a shared GPU of type H100: GPU 0 has " + MemoryText.words(left)
          + " left; GPU 2: outside process");
      long exclusive = g.submit("-g", "1", "--gpu-type", "H100", "bash", "-c", "echo \"$CUDA_VISIBLE_DEVICES\" > excl");
      g.awaitWaitReason(exclusive, "needs 1 GPU of type H100: GPUs 0,2 fit, both busy (GPU 0: shared by jobs "
          + four.get(0) + ", " + four.get(1) + ", " + four.get(2) + ", " + four.get(3) + "; GPU 2: outside process)");

      long anyCard = g.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", "echo \"$GQ_VRAM $CUDA_VISIBLE_DEVICES\" > any");
      assertEquals(List.of(1), indices(g.awaitState(anyCard, "DONE", T)), "the 4090 holds 20 GB and the headroom");
      assertEquals("19074 1", Files.readString(g.work.resolve("any")).strip(), "GQ_VRAM: its share, MiB");

      String table = g.gq("gpu").out();
      assertTrue(table.contains("SHARED") && table.contains("jobs " + four.get(0) + " (18.6G), " + four.get(1) + " (18.6G), "
          + four.get(2) + " (18.6G), " + four.get(3) + " (18.6G); " + MemoryText.brief(left) + " left"), table);
      JsonNode gpu0 = g.gpus().get(0);
      assertEquals("SHARED", gpu0.get("state").asText());
      assertEquals(4, gpu0.get("shares").size());
      assertEquals(19074L << 20, gpu0.get("shares").get(0).get("declared_memory").asLong());
      assertEquals(1000L << 20, gpu0.get("shares").get(0).get("used_memory").asLong());
      assertEquals(left << 20, gpu0.get("share_free_memory").asLong());

      // the first job now uses 30,000 MiB, more than its 20 GB; the last one ends: the fifth would
      // fit, but no job joins a card where a job uses more than it declared
      long greedy = four.get(0);
      String pid = Files.readString(g.work.resolve("pid-" + greedy)).strip();
      Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(0)).resolve(pid), "30000");
      assertEquals(0, g.gq("cancel", String.valueOf(four.get(3))).code());
      g.awaitState(four.get(3), "CANCELLED", T);
      g.awaitWaitReason(fifth, "GPU 0: job " + greedy + " uses 29.3 GiB of its 18.6 GiB, no more jobs go there");
      assertTrue(g.gq("gpu").out().contains(greedy + " (18.6G, uses 29.3G: over)"), g.gq("gpu").out());
      assertTrue(g.gq("show", String.valueOf(greedy)).out().contains("GPU 0: 18.6 GiB, uses 29.3 GiB, more than it declared"),
          g.gq("show", String.valueOf(greedy)).out());
      assertEquals("RUNNING", g.state(greedy), "never stopped for it");
      Gqd.await("its owner to be told", T, () -> Files.exists(notes) && read(notes).contains("over_memory " + greedy));

      Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(0)).resolve(pid), "1000");
      assertEquals(List.of(0), indices(g.awaitState(fifth, "RUNNING", T)), "back within its share: the fifth joins");
      assertEquals("WAITING", g.state(exclusive));

      Files.writeString(g.work.resolve("stop"), "");
      assertEquals(List.of(0), indices(g.awaitState(exclusive, "DONE", T)), "the card emptied: the exclusive job gets it");
      assertEquals("0", Files.readString(g.work.resolve("excl")).strip());
      assertEquals("over_memory " + greedy + "\n", read(notes), "told once, though many readings showed it over");
      assertEquals(1, g.gq("events", "--json").out().lines().filter(l -> l.contains("\"JobOverShare\"")).count());
    }
  }

  @Test
  void aSharedJobMustSayHowMuchOfACardItTakes() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Gqd.Result r = g.gq("run", "--share", "true");
      assertNotEquals(0, r.code(), r.toString());
      assertEquals("gq: --share needs the memory the job takes of a GPU: add --vram SIZE (e.g. --vram 20G) or --per-gpu K\n", r.err());
      Gqd.Result slurm = g.gq("run", "--to", "slurm", "--share", "--vram", "20G", "true");
      assertNotEquals(0, slurm.code());
      Gqd.Result group = g.gq("groups", "evals", "--per-gpu", "2");
      assertEquals("Group evals: its GPU jobs submitted from now on share their GPUs, at most 2 a GPU.\n", group.out(), group.toString());
      assertEquals(2, g.gq("groups", "--json", "evals").json().get(0).get("per_gpu").asInt());
      long a = g.submit("-g", "1", "--group", "evals", "bash", "-c", "while [ ! -e stop ]; do sleep 0.1; done");
      long b = g.submit("-g", "1", "--group", "evals", "bash", "-c", "while [ ! -e stop ]; do sleep 0.1; done");
      long c = g.submit("-g", "1", "--group", "evals", "bash", "-c", "echo \"$GQ_VRAM\" > counted");
      g.awaitState(a, "RUNNING", T);
      g.awaitState(b, "RUNNING", T);
      assertTrue(g.job(c).get("share").asBoolean());
      assertEquals(2, g.job(c).get("per_gpu").asInt());
      g.awaitWaitReason(c, "needs 1/2 of a GPU on a shared GPU: GPU 0 holds 2 shared jobs (--per-gpu 2)");
      Files.writeString(g.work.resolve("stop"), "");
      g.awaitState(c, "DONE", T);
      assertEquals(String.valueOf((81920 - 1024) / 2), Files.readString(g.work.resolve("counted")).strip(),
          "GQ_VRAM: half the card less the headroom");
      assertTrue(slurm.err().startsWith("gq: --share and --per-gpu share this machine's GPUs"), slurm.err());
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static List<Integer> indices(JsonNode job) {
    List<Integer> out = new ArrayList<>();
    job.get("gpu_indices").forEach(i -> out.add(i.asInt()));
    return out;
  }
}

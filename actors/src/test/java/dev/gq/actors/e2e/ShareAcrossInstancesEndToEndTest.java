package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.core.gpu.MemoryText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two gq daemons on one machine (two data directories, one fake 80 GB card both read) share the card
 * through its machine-wide lease: each runs two shared 20 GB jobs on it at once, a fifth shared job
 * of either waits (no room with the headroom) until room is left, an exclusive job of either waits until the card has
 * emptied of both daemons' shares, each `gq gpu` shows the other's shares, and `gq preempt --for` of
 * a shared job is refused. Real daemons, real jobs (their processes hold the lease and share files).
 */
class ShareAcrossInstancesEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  // opens a "context" of 1000 MiB on its GPU, and runs until ./stop exists (each daemon its own work dir)
  private static final String SHARED_JOB = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 1000 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done;"
      + " while [ ! -e stop ]; do sleep 0.1; done";

  @TempDir Path tmp;

  @Test
  void twoDaemonsShareOneCardWithinItsMemoryAndKeepExclusiveJobsOffUntilItEmpties() throws Exception {
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1);
        Gqd b = Gqd.start(tmp.resolve("b"), 1, Map.of("GQ_FAKE_NVML", tmp.resolve("a/fake").toString()))) {
      List<Long> ofA = new ArrayList<>(), ofB = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        ofA.add(a.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", SHARED_JOB));
        ofB.add(b.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", SHARED_JOB));
      }
      for (long id : ofA) a.awaitState(id, "RUNNING", T);
      for (long id : ofB) b.awaitState(id, "RUNNING", T);

      // each daemon sees the other's shares, by holder and memory, beside its own
      String bIn = "of the gq in " + b.data, aIn = "of the gq in " + a.data;
      String[] seenByA = {""};
      Gqd.await("a to show b's shares", T, () -> (seenByA[0] = a.gq("gpu").out())
          .contains("jobs " + ofA.get(0) + " (18.6G), " + ofA.get(1) + " (18.6G), job " + ofB.get(0) + " " + bIn + " (18.6G), job "
              + ofB.get(1) + " " + bIn + " (18.6G); "));
      assertTrue(seenByA[0].contains("SHARED"), seenByA[0]);
      Gqd.await("b to show a's shares", T, () -> b.gq("gpu").out().contains("job " + ofA.get(0) + " " + aIn + " (18.6G)"));
      JsonNode gpu = a.gpus().get(0);
      assertEquals("SHARED", gpu.get("state").asText(), gpu.toString());
      assertEquals(2, gpu.get("shares").size(), gpu.toString());
      assertEquals(2, gpu.get("other_shares").size(), gpu.toString());
      assertEquals("job " + ofB.get(0) + " " + bIn, gpu.get("other_shares").get(0).get("held_by").asText());
      assertEquals(19074L << 20, gpu.get("other_shares").get(0).get("declared_memory").asLong());
      long left = 81920 - 1024 - 4 * 19074;
      assertEquals(left << 20, gpu.get("share_free_memory").asLong(), "four shares of two daemons counted once each");
      assertEquals("RUNNING", a.state(ofA.get(0)), "b's processes on the card are b's jobs', not outside processes");

      // a fifth shared job of either waits: no room with the headroom
      long fifthA = a.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", SHARED_JOB);
      long fifthB = b.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", SHARED_JOB);
      a.awaitWaitReason(fifthA, "needs 18.6 GiB on a shared GPU: GPU 0 has " + MemoryText.words(left) + " left");
      b.awaitWaitReason(fifthB, "needs 18.6 GiB on a shared GPU: GPU 0 has " + MemoryText.words(left) + " left");

      // an exclusive job of either waits for the card to empty
      long exclA = a.submit("-g", "1", "bash", "-c", "echo \"$CUDA_VISIBLE_DEVICES\" > excl");
      long exclB = b.submit("-g", "1", "bash", "-c", "echo \"$CUDA_VISIBLE_DEVICES\" > excl");
      a.awaitWaitReason(exclA, "GPU 0: shared by jobs " + ofA.get(0) + ", " + ofA.get(1) + " and job " + ofB.get(0) + " " + bIn);
      b.awaitWaitReason(exclB, "GPU 0: shared by jobs " + ofB.get(0) + ", " + ofB.get(1) + " and job " + ofA.get(0) + " " + aIn);

      // preempting a shared job cannot free the card for the exclusive one
      Gqd.Result preempt = a.gq("preempt", String.valueOf(ofA.get(0)), "--for", String.valueOf(exclA));
      assertNotEquals(0, preempt.code(), preempt.toString());
      assertEquals("gq: job " + ofA.get(0) + " shares its GPU (--share): preempting it frees no whole GPU to give to job " + exclA
          + ", as other shared jobs may stay there; preempt it without --for\n", preempt.err());
      assertEquals("RUNNING", a.state(ofA.get(0)));

      // a's shared jobs end: its fifth, then b's, take the room they left; a's exclusive job still
      // waits, for b's shares alone
      Files.writeString(a.work.resolve("stop"), "");
      for (long id : ofA) a.awaitState(id, "DONE", T);
      a.awaitState(fifthA, "DONE", T);
      b.awaitState(fifthB, "RUNNING", T);
      a.awaitWaitReason(exclA, "needs 1 GPU, 0 free (GPU 0: shared by job " + ofB.get(0) + " " + bIn + ", job " + ofB.get(1) + " "
          + bIn + ", job " + fifthB + " " + bIn + ")");
      assertEquals("WAITING", a.state(exclA));
      assertEquals("WAITING", b.state(exclB));

      // b's end too: the card is empty, each exclusive job gets it in turn
      Files.writeString(b.work.resolve("stop"), "");
      a.awaitState(exclA, "DONE", T);
      b.awaitState(exclB, "DONE", T);
      assertEquals("0", Files.readString(a.work.resolve("excl")).strip());
      assertEquals("0", Files.readString(b.work.resolve("excl")).strip());
      for (long id : ofB) assertEquals("DONE", b.state(id));
      assertEquals("DONE", b.state(fifthB));
    }
  }
}

package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.JobSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shared jobs ({@code --share}) on FREE and SHARED GPUs: the allocator, the classifier and their words. */
class SharedPlacementTest {
  static final long H100 = 81559; // an "80GB" card, MiB
  static final long RTX4090 = 24564;
  static final long G20 = GpuNeed.parseMiB("20G");

  static JobSpec shared(String vram, int perGpu) {
    return spec(1).withGpuNeed(GpuNeed.of(vram == null ? 0 : GpuNeed.parseMiB(vram), List.of(), true, perGpu));
  }

  static Job job(long id, JobSpec spec) {
    return new Job(id, spec, JobState.WAITING, T0.plusSeconds(id), null, null, List.of(), null, null, null, null, tag(id), null);
  }

  static GpuStatus card(int i, long mib) {
    return new GpuStatus(i, uuid(i), i % 2 == 0 ? "NVIDIA H100 80GB HBM3" : "NVIDIA GeForce RTX 4090", GpuState.FREE, null,
        List.of(), mib << 20, 0, null);
  }

  static GpuStatus sharedCard(int i, long mib, GpuStatus.Share... shares) {
    return new GpuStatus(i, uuid(i), "NVIDIA H100 80GB HBM3", GpuState.SHARED, shares[0].jobId(), List.of(), mib << 20, 0, null,
        null, List.of(shares));
  }

  static Map<Long, List<Integer>> placed(Plan p) {
    Map<Long, List<Integer>> m = new HashMap<>();
    for (var pl : p.reservations()) m.put(pl.jobId(), pl.gpus().stream().map(GpuSlot::index).toList());
    return m;
  }

  @Test
  void fourTwentyGigabyteJobsShareOneEightyGigabyteCardAndTheFifthWaitsSayingWhatIsLeft() {
    List<Job> q = new ArrayList<>();
    for (long id = 1; id <= 5; id++) q.add(job(id, shared("20G", 0)));
    Plan p = Allocator.plan(q, List.of(card(0, H100)), Map.of());
    assertEquals(Map.of(1L, List.of(0), 2L, List.of(0), 3L, List.of(0), 4L, List.of(0)), placed(p));
    // 81,559 − 1,024 headroom − 4 × 19,074 = 4,239 MiB left
    assertEquals("needs 18.6 GiB on a shared GPU: GPU 0 has 4.1 GiB left", p.waitReasons().get(5L).text());
  }

  @Test
  void anExclusiveJobNeverJoinsASharedCardAndWaitsNamingItsJobs() {
    GpuStatus g = sharedCard(0, H100, new GpuStatus.Share(4, G20, 0, 0), new GpuStatus.Share(5, G20, 0, 0));
    Plan p = Allocator.plan(List.of(waiting(1, 1)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 1 GPU, 0 free (GPU 0: shared by jobs 4, 5)", p.waitReasons().get(1L).text());
  }

  @Test
  void aSharedJobNeverGoesBesideAnExclusiveJobOrAnOutsideProcess() {
    List<GpuStatus> gpus = List.of(gpu(0, GpuState.RUNNING), gpu(1, GpuState.EXTERNAL), gpu(2, GpuState.UNKNOWN));
    Plan p = Allocator.plan(List.of(job(1, shared("20G", 0))), gpus, Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 18.6 GiB on a shared GPU: GPU 0: job 90; GPU 1: outside process; GPU 2: UNKNOWN",
        p.waitReasons().get(1L).text());
  }

  @Test
  void aSharedJobGoesToTheFullestCardThatHoldsItSoWholeCardsStayFree() {
    List<GpuStatus> gpus = List.of(card(0, H100), sharedCard(1, H100, new GpuStatus.Share(7, G20, 0, 0)),
        sharedCard(2, H100, new GpuStatus.Share(8, GpuNeed.parseMiB("50G"), 0, 0)), card(3, RTX4090));
    Plan p = Allocator.plan(List.of(job(1, shared("20G", 0)), job(2, shared("10G", 0)), waiting(3, 1)), gpus, Map.of());
    // job 1 fits on GPU 2 (50 + 20 of 80) and GPU 1; GPU 2 is fuller. Job 2 (10 GB) still fits on
    // GPU 2, the fullest; neither takes a FREE card, and the exclusive job 3 gets GPU 0.
    assertEquals(Map.of(1L, List.of(2), 2L, List.of(2), 3L, List.of(0)), placed(p));
  }

  @Test
  void onFreeCardsASharedJobTakesTheSmallestThatHoldsIt() {
    Plan p = Allocator.plan(List.of(job(1, shared("20G", 0))), List.of(card(0, H100), card(1, RTX4090)), Map.of());
    assertEquals(Map.of(1L, List.of(1)), placed(p), "the 24 GB card holds 20 GB + 1 GiB headroom");
    Plan big = Allocator.plan(List.of(job(1, shared("25G", 0))), List.of(card(0, H100), card(1, RTX4090)), Map.of());
    assertEquals(Map.of(1L, List.of(0)), placed(big), "25 GB fits a 4090's total, but not with the headroom");
  }

  @Test
  void onMixedCardsSharedJobsPackBestFitSoABigCardStaysWholeForABigJob() {
    List<Job> q = new ArrayList<>();
    for (long id = 1; id <= 5; id++) q.add(job(id, shared("20G", 0)));
    q.add(job(6, spec(1).withGpuNeed(GpuNeed.of(GpuNeed.parseMiB("80G"), List.of()))));
    Plan p = Allocator.plan(q, List.of(card(0, H100), card(1, H100), card(2, RTX4090), card(3, RTX4090)), Map.of());
    assertEquals(Map.of(1L, List.of(2), 2L, List.of(3), 3L, List.of(0), 4L, List.of(0), 5L, List.of(0), 6L, List.of(1)), placed(p),
        "the smallest free card that holds a job first, then the fullest shared one: GPU 1 stays whole for job 6");
  }

  @Test
  void theSmallestCapOfJobsPerGpuOnACardHolds() {
    GpuStatus g = sharedCard(0, H100, new GpuStatus.Share(4, 1024, 2, 0), new GpuStatus.Share(5, 1024, 0, 0));
    Plan p = Allocator.plan(List.of(job(1, shared("1G", 0))), List.of(g), Map.of());
    assertEquals("needs 954 MiB on a shared GPU: GPU 0 holds 2 shared jobs (--per-gpu 2)", p.waitReasons().get(1L).text());
    Plan mine = Allocator.plan(List.of(job(1, shared("1G", 3)), job(2, shared("1G", 0))),
        List.of(sharedCard(0, H100, new GpuStatus.Share(4, 1024, 0, 0))), Map.of());
    assertEquals(Map.of(1L, List.of(0), 2L, List.of(0)), placed(mine), "job 1's cap of 3 holds for job 2 too");
    assertEquals(List.of(), placed(Allocator.plan(List.of(job(3, shared("1G", 0))),
        List.of(sharedCard(0, H100, new GpuStatus.Share(4, 1024, 0, 0), new GpuStatus.Share(1, 1024, 3, 0),
            new GpuStatus.Share(2, 1024, 0, 0))), Map.of())).getOrDefault(3L, List.of()));
  }

  @Test
  void perGpuWithoutVramDeclaresItsPartOfTheCardLessTheHeadroom() {
    List<Job> q = new ArrayList<>();
    for (long id = 1; id <= 5; id++) q.add(job(id, shared(null, 4)));
    Plan p = Allocator.plan(q, List.of(card(0, H100)), Map.of());
    assertEquals(4, p.reservations().size());
    assertEquals("needs 1/4 of a GPU on a shared GPU: GPU 0 holds 4 shared jobs (--per-gpu 4)", p.waitReasons().get(5L).text());
    assertEquals((H100 - 1024) / 4, new GpuNeed(0, List.of(), true, 4).declaredMiB(H100, 1024));
  }

  @Test
  void aJobOverItsDeclarationStopsMorePlacementsOnItsCard() {
    GpuStatus g = sharedCard(0, H100, new GpuStatus.Share(4, G20, 0, 30_000));
    Plan p = Allocator.plan(List.of(job(1, shared("10G", 0))), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 9.3 GiB on a shared GPU: GPU 0: job 4 uses 29.3 GiB of its 18.6 GiB, no more jobs go there",
        p.waitReasons().get(1L).text());
    assertEquals("over its share", p.waitReasons().get(1L).brief());
  }

  @Test
  void theHeadroomIsTheRulesOne() {
    List<Job> q = List.of(job(1, shared("42.5G", 0)), job(2, shared("42.5G", 0)));
    assertEquals(1, Allocator.plan(q, List.of(card(0, H100)), Map.of()).reservations().size(), "85 GB + 1 GiB > 81,559 MiB");
    assertEquals(2, Allocator.plan(q, List.of(card(0, H100)), Map.of(), PlanRules.NONE.withHeadroom(0)).reservations().size());
  }

  @Test
  void aSharedCardsSharesAreShownWithWhatIsLeft() {
    GpuStatus g = sharedCard(0, H100, new GpuStatus.Share(4, G20, 0, 100), new GpuStatus.Share(5, G20, 0, 25_000));
    assertEquals("jobs 4 (18.6G), 5 (18.6G, uses 24.4G: over); 41.4G left", SharedFit.describe(g, 1024));
  }

  @Test
  void aSharedGpuIsSharedWhenEveryProcessOnItIsOneOfItsJobsAndUnknownOtherwise() {
    Job a = holdingShared(4, 0);
    Job b = holdingShared(5, 0);
    DeviceReading d = new DeviceReading(0, uuid(0), "NVIDIA H100 80GB HBM3", H100 << 20, 0,
        List.of(new GpuProcess(401, 3000L << 20), new GpuProcess(402, 1000L << 20), new GpuProcess(501, 500L << 20)), null);
    Map<Long, dev.gq.core.alloc.ProcessFacts> facts = Map.of(401L, inJob(401, 4), 402L, inJob(402, 4), 501L, inJob(501, 5));
    GpuObservation obs = new GpuObservation(new GpuReading(T0, List.of(d), null), facts);
    GpuStatus g = GpuClassifier.classifyShared(obs, List.of(), Map.of(uuid(0), List.of(a, b)), List.of(a, b)).get(0);
    assertEquals(GpuState.SHARED, g.state());
    assertEquals(List.of(new GpuStatus.Share(4, G20, 0, 4000), new GpuStatus.Share(5, G20, 0, 500)), g.shares());

    Map<Long, dev.gq.core.alloc.ProcessFacts> stranger = new HashMap<>(facts);
    stranger.put(501L, stranger(501));
    GpuStatus u = GpuClassifier.classifyShared(new GpuObservation(new GpuReading(T0, List.of(d), null), stranger), List.of(),
        Map.of(uuid(0), List.of(a, b)), List.of(a, b)).get(0);
    assertEquals(GpuState.UNKNOWN, u.state());
    assertEquals("shared by jobs 4, 5 but used by process(es) none of them owns: 501", u.detail());

    Job x = holding(6, JobState.RUNNING, 0);
    GpuStatus mixed = GpuClassifier.classifyShared(obs, List.of(), Map.of(uuid(0), List.of(a, x)), List.of(a, x)).get(0);
    assertEquals(GpuState.UNKNOWN, mixed.state(), "an exclusive job and a shared one: never placed");
  }

  static Job holdingShared(long id, int index) {
    Job h = holding(id, JobState.RUNNING, index);
    return h.withSpec(h.spec().withGpuNeed(GpuNeed.of(G20, List.of(), true, 0)));
  }
}

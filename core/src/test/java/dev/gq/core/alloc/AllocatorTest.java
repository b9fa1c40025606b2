package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AllocatorTest {

  private static Plan plan(List<Job> queue, List<GpuStatus> gpus) {
    return Allocator.plan(queue, gpus, Map.of());
  }

  private static Map<Long, List<Integer>> placed(Plan p) {
    Map<Long, List<Integer>> m = new HashMap<>();
    for (var pl : p.reservations()) m.put(pl.jobId(), pl.gpus().stream().map(GpuSlot::index).toList());
    return m;
  }

  @Test
  void oldestWaitingJobGetsTheGpuFirst() {
    Plan p = plan(List.of(waiting(1, 1), waiting(2, 1)), List.of(free(0)));
    assertEquals(Map.of(1L, List.of(0)), placed(p));
    assertTrue(p.waitReasons().containsKey(2L));
  }

  @Test
  void youngerJobThatFitsBackfillsAheadOfAnOlderOneThatDoesNot() {
    Plan p = plan(List.of(waiting(1, 2), waiting(2, 1)), List.of(free(0), gpu(1, GpuState.RUNNING)));
    assertEquals(Map.of(2L, List.of(0)), placed(p));
    assertEquals(Set.of(1L), p.waitReasons().keySet());
  }

  @Test
  void firstFitGivesEachJobInTurnWhatIsLeft() {
    var gpus = List.of(free(0), free(1), free(2));
    Plan p = plan(List.of(waiting(1, 2), waiting(2, 2), waiting(3, 1)), gpus);
    assertEquals(Map.of(1L, List.of(0, 1), 3L, List.of(2)), placed(p));
    assertEquals(Set.of(2L), p.waitReasons().keySet());
  }

  @Test
  void reservationsTakeTheLowestFreeIndices() {
    var gpus = List.of(free(3), gpu(0, GpuState.EXTERNAL), free(2), free(1));
    Plan p = plan(List.of(waiting(1, 2)), gpus);
    List<GpuSlot> slots = p.reservations().get(0).gpus();
    assertEquals(List.of(new GpuSlot(uuid(1), 1), new GpuSlot(uuid(2), 2)), slots);
  }

  @Test
  void aTwoGpuJobNeverTakesOneGpu() {
    Plan p = plan(List.of(waiting(1, 2)), List.of(free(0), gpu(1, GpuState.UNKNOWN)));
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 2 GPUs, 1 free (GPU 1: UNKNOWN)", p.waitReasons().get(1L).text());
  }

  @Test
  void onlyFreeGpusAreAllocatable() {
    for (GpuState s : GpuState.values()) {
      if (s == GpuState.FREE) continue;
      Plan p = plan(List.of(waiting(1, 1)), List.of(gpu(0, s)));
      assertTrue(p.reservations().isEmpty(), s + " must not be allocatable");
      assertTrue(p.waitReasons().get(1L).text().startsWith("needs 1 GPU, 0 free"), p.waitReasons().get(1L).text());
    }
  }

  @Test
  void waitReasonSaysWhatHoldsEachBusyGpu() {
    var gpus = List.of(gpu(0, GpuState.RUNNING), gpu(1, GpuState.EXTERNAL), gpu(2, GpuState.RESERVED), free(3));
    Plan p = plan(List.of(waiting(1, 2)), gpus);
    assertEquals("needs 2 GPUs, 1 free (GPU 0: job 90; GPU 1: outside process; GPU 2: job 92)", p.waitReasons().get(1L).text());
    assertEquals("GPUs busy", p.waitReasons().get(1L).brief(), "a few words for a table column");
  }

  @Test
  void waitReasonListsAtMostFourBusyGpus() {
    List<GpuStatus> gpus = new ArrayList<>();
    for (int i = 0; i < 7; i++) gpus.add(gpu(i, GpuState.EXTERNAL));
    String why = plan(List.of(waiting(1, 1)), gpus).waitReasons().get(1L).text();
    assertTrue(why.startsWith("needs 1 GPU, 0 free (GPU 0: outside process"), why);
    assertTrue(why.endsWith("; +3 more)"), why);
  }

  @Test
  void machineWithNoGpusSaysSoToAGpuJob() {
    assertEquals("needs 1 GPU, 0 free", plan(List.of(waiting(1, 1)), List.of()).waitReasons().get(1L).text());
  }

  @Test
  void cpuOnlyJobIsPlacedWithNoGpuReadingYet() {
    Plan p = Allocator.plan(List.of(waiting(1, 1), waiting(2, 0)), null, Map.of());
    assertEquals(1, p.reservations().size());
    assertEquals(2L, p.reservations().get(0).jobId());
    assertTrue(p.reservations().get(0).gpus().isEmpty());
    assertEquals("waiting for the first GPU reading", p.waitReasons().get(1L).text());
    assertEquals("no GPU reading", p.waitReasons().get(1L).brief());
  }

  @Test
  void cpuOnlyJobIsPlacedWhenEveryGpuIsBusy() {
    Plan p = plan(List.of(waiting(1, 0)), List.of(gpu(0, GpuState.RUNNING)));
    assertEquals(Map.of(1L, List.of()), placed(p));
    assertTrue(p.waitReasons().isEmpty());
  }

  @Test
  void blockedJobGetsItsReasonAndLeavesTheGpusToOthers() {
    Map<Long, WaitReason> blocked = Map.of(1L, new WaitReason.GroupHeld("sweep", "held by the user"), 3L, new WaitReason.QueueHeld());
    Plan p = Allocator.plan(List.of(waiting(1, 1), waiting(2, 1), waiting(3, 0)), List.of(free(0)), blocked);
    assertEquals(Map.of(2L, List.of(0)), placed(p));
    assertEquals("group sweep is held: held by the user", p.waitReasons().get(1L).text());
    assertEquals("the queue is held; 'gq release --all' lets jobs start", p.waitReasons().get(3L).text());
  }

  @Test
  void blockedJobKeepsItsReasonBeforeTheFirstReading() {
    Plan p = Allocator.plan(List.of(waiting(1, 1)), null, Map.of(1L, new WaitReason.QueueHeld()));
    assertEquals("the queue is held; 'gq release --all' lets jobs start", p.waitReasons().get(1L).text());
  }

  @Test
  void emptyQueueGivesAnEmptyPlan() {
    Plan p = plan(List.of(), List.of(free(0)));
    assertTrue(p.reservations().isEmpty());
    assertTrue(p.waitReasons().isEmpty());
  }

  @Test
  void gpuListedTwiceInOneReadingIsNeverPlacedTwice() {
    var twin = new GpuStatus(1, uuid(0), "NVIDIA H200", GpuState.FREE, null, List.of(), 0, 0, null);
    Plan p = plan(List.of(waiting(1, 1), waiting(2, 1)), List.of(free(0), twin));
    Set<String> seen = new HashSet<>();
    for (var pl : p.reservations()) for (GpuSlot s : pl.gpus()) assertTrue(seen.add(s.uuid()), "placed twice: " + s);
    assertTrue(p.reservations().isEmpty(), "an ambiguous GPU is left idle");
    assertEquals(Set.of(1L, 2L), p.waitReasons().keySet());
  }

  /**
   * Over many random queues and GPU states: every GPU goes to at most one reservation, only FREE GPUs
   * are placed, each reservation has exactly the requested count, in ascending index order, and the
   * free GPUs are consumed lowest index first; a job waits (with a reason) exactly when it is
   * blocked or needs more GPUs than the older jobs left.
   */
  @Test
  void randomQueuesNeverShareAGpuAndFollowFirstFit() {
    Random rnd = new Random(20250101);
    GpuState[] states = GpuState.values();
    for (int round = 0; round < 2000; round++) {
      int n = rnd.nextInt(9);
      List<GpuStatus> gpus = new ArrayList<>();
      for (int i = 0; i < n; i++) gpus.add(gpu(i, states[rnd.nextInt(states.length)]));
      java.util.Collections.shuffle(gpus, rnd);
      List<Job> queue = new ArrayList<>();
      Map<Long, WaitReason> blocked = new HashMap<>();
      int jobs = rnd.nextInt(10);
      for (long id = 1; id <= jobs; id++) {
        queue.add(waiting(id, rnd.nextInt(5)));
        if (rnd.nextInt(6) == 0) blocked.put(id, new WaitReason.Held(id));
      }
      check(queue, gpus, blocked, Allocator.plan(queue, gpus, blocked));
    }
  }

  /**
   * Over many random queues on mixed cards (24 GB 4090s, 40 and 80 GB A100s, 80 GB H100s) with jobs
   * asking for memory, a type, both or neither: every GPU goes to at most one reservation, only FREE
   * GPUs are placed, each reservation has the requested count, no job is on a card too small or of
   * another type, and a job waits (with a reason) only when it is blocked or too few free cards that
   * fit it are left by the jobs placed before it.
   */
  @Test
  void randomQueuesOnMixedCardsNeverPutAJobOnACardThatDoesNotFit() {
    Random rnd = new Random(20261201);
    GpuState[] states = GpuState.values();
    String[] names = {"NVIDIA GeForce RTX 4090", "NVIDIA A100-PCIE-40GB", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"};
    long[] mib = {24564, 40536, 81920, 81559};
    String[] vram = {null, null, "20G", "40G", "80G", "24GiB"};
    String[][] types = {{}, {}, {"4090"}, {"A100"}, {"H100", "a100"}, {"80GB"}};
    for (int round = 0; round < 2000; round++) {
      List<GpuStatus> gpus = new ArrayList<>();
      int n = rnd.nextInt(9);
      for (int i = 0; i < n; i++) {
        int c = rnd.nextInt(names.length);
        GpuState st = rnd.nextInt(3) == 0 ? states[rnd.nextInt(states.length)] : GpuState.FREE;
        Long owner = st == GpuState.RESERVED || st == GpuState.RUNNING ? (long) (90 + i) : null;
        gpus.add(new GpuStatus(i, uuid(i), names[c], st, owner, List.of(), mib[c] << 20, 0, null));
      }
      java.util.Collections.shuffle(gpus, rnd);
      List<Job> queue = new ArrayList<>();
      Map<Long, WaitReason> blocked = new HashMap<>();
      for (long id = 1, jobs = rnd.nextInt(10); id <= jobs; id++) {
        String v = vram[rnd.nextInt(vram.length)];
        var need = dev.gq.core.job.GpuNeed.of(v == null ? 0 : dev.gq.core.job.GpuNeed.parseMiB(v),
            List.of(types[rnd.nextInt(types.length)]));
        var spec = spec(1 + rnd.nextInt(3)).withGpuNeed(need);
        queue.add(new Job(id, spec, dev.gq.core.job.JobState.WAITING, T0.plusSeconds(id), null, null, List.of(), null,
            null, null, null, tag(id), null));
        if (rnd.nextInt(6) == 0) blocked.put(id, new WaitReason.Held(id));
      }
      checkFits(queue, gpus, blocked, Allocator.plan(queue, gpus, blocked));
    }
  }

  /**
   * Over many random queues of shared ({@code --share}, with --vram, --per-gpu or both) and
   * exclusive jobs on mixed cards in every state, SHARED ones already holding shares (some of them
   * over their declaration, some drained), after the plan: an exclusive job is placed only on a FREE
   * GPU and alone there; a shared job only on a FREE or SHARED GPU, never one with an outside
   * process, an exclusive job, a drained mark or a job over its declaration; on every GPU the
   * declared memory of its shared jobs plus the headroom fits the card, and no job's cap of jobs
   * per GPU is exceeded; every job is placed or has a reason. It fails when the allocator ignores
   * the memory, the cap, the over-use or the GPU's state.
   */
  @Test
  void randomSharedAndExclusiveQueuesOnMixedCardsKeepEachGpuExclusiveOrWithinItsMemory() {
    Random rnd = new Random(20261202);
    GpuState[] states = GpuState.values();
    String[] names = {"NVIDIA GeForce RTX 4090", "NVIDIA A100-PCIE-40GB", "NVIDIA H100 80GB HBM3"};
    long[] mib = {24564, 40536, 81559};
    String[] vram = {null, "5G", "10G", "20G", "40G", "24GiB"};
    long headroom = 1024;
    for (int round = 0; round < 3000; round++) {
      List<GpuStatus> gpus = new ArrayList<>();
      int n = rnd.nextInt(7);
      long other = 500;
      for (int i = 0; i < n; i++) {
        int c = rnd.nextInt(names.length);
        GpuState st = rnd.nextInt(3) == 0 ? states[rnd.nextInt(states.length)] : rnd.nextBoolean() ? GpuState.SHARED : GpuState.FREE;
        List<GpuStatus.Share> shares = new ArrayList<>();
        if (st == GpuState.SHARED) {
          for (int k = 0, m = 1 + rnd.nextInt(3); k < m; k++) {
            long v = rnd.nextInt(4) == 0 ? 0 : 1024 + rnd.nextInt(12_000);
            int cap = v == 0 ? 2 + rnd.nextInt(4) : rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(5) : 0;
            long declared = new dev.gq.core.job.GpuNeed(v, List.of(), true, cap).declaredMiB(mib[c], headroom);
            long used = rnd.nextInt(8) == 0 ? declared + 1 + rnd.nextInt(5000) : rnd.nextInt((int) declared + 1);
            shares.add(new GpuStatus.Share(other++, v, cap, used));
          }
        }
        Long owner = st == GpuState.RESERVED || st == GpuState.RUNNING ? Long.valueOf(90 + i)
            : st == GpuState.SHARED ? Long.valueOf(shares.get(0).jobId()) : null;
        String detail = st == GpuState.SHARED && rnd.nextInt(8) == 0 ? "drained (x): no new job after this" : null;
        gpus.add(new GpuStatus(i, uuid(i), names[c], st, owner, List.of(), mib[c] << 20, 0, detail, null, shares));
      }
      java.util.Collections.shuffle(gpus, rnd);
      List<Job> queue = new ArrayList<>();
      Map<Long, WaitReason> blocked = new HashMap<>();
      for (long id = 1, jobs = rnd.nextInt(12); id <= jobs; id++) {
        String v = vram[rnd.nextInt(vram.length)];
        boolean share = rnd.nextInt(3) > 0;
        int cap = share && (v == null || rnd.nextInt(3) == 0) ? 1 + rnd.nextInt(5) : 0;
        var need = dev.gq.core.job.GpuNeed.of(v == null ? 0 : dev.gq.core.job.GpuNeed.parseMiB(v),
            rnd.nextInt(5) == 0 ? List.of("H100") : List.of(), share, cap);
        var spec = spec(1 + (rnd.nextInt(4) == 0 ? 1 : 0)).withGpuNeed(need);
        queue.add(new Job(id, spec, dev.gq.core.job.JobState.WAITING, T0.plusSeconds(id), null, null, List.of(), null,
            null, null, null, tag(id), null));
        if (rnd.nextInt(8) == 0) blocked.put(id, new WaitReason.Held(id));
      }
      checkShares(queue, gpus, blocked, Allocator.plan(queue, gpus, blocked), headroom);
    }
  }

  private static void checkShares(List<Job> queue, List<GpuStatus> gpus, Map<Long, WaitReason> blocked, Plan p, long headroom) {
    Map<String, GpuStatus> byUuid = new HashMap<>();
    gpus.forEach(g -> byUuid.put(g.uuid(), g));
    Map<Long, Job> jobs = new HashMap<>();
    queue.forEach(j -> jobs.put(j.id(), j));
    Map<String, List<Job>> onGpu = new HashMap<>();
    for (var pl : p.reservations()) {
      Job j = jobs.get(pl.jobId());
      assertFalse(blocked.containsKey(j.id()), "a blocked job is never placed");
      assertEquals(j.spec().gpus(), pl.gpus().size());
      assertEquals(pl.gpus().size(), pl.gpus().stream().map(GpuSlot::uuid).distinct().count(), "one GPU twice for one job");
      for (GpuSlot s : pl.gpus()) onGpu.computeIfAbsent(s.uuid(), x -> new ArrayList<>()).add(j);
    }
    for (Job j : queue)
      assertNotEquals(p.reservations().stream().anyMatch(r -> r.jobId() == j.id()), p.waitReasons().containsKey(j.id()),
          "job " + j.id() + " is placed or has a reason");
    onGpu.forEach((uuid, added) -> {
      GpuStatus g = byUuid.get(uuid);
      for (Job j : added) assertTrue(GpuFit.fits(j.spec(), g), "job " + j.id() + " on a card it does not fit");
      boolean anyExclusive = added.stream().anyMatch(j -> !j.spec().shares());
      if (anyExclusive) {
        assertEquals(GpuState.FREE, g.state(), "an exclusive job only on a FREE GPU");
        assertEquals(1, added.size(), "an exclusive job alone on its GPU");
        return;
      }
      assertTrue(g.state() == GpuState.FREE || (g.state() == GpuState.SHARED && g.detail() == null),
          "a shared job on a " + g.state() + " GPU: " + g.detail());
      assertTrue(g.overShares(headroom).isEmpty(), "a job joined a GPU where a job uses more than it declared");
      long sum = g.sharedMiB(headroom);
      for (Job j : added) sum += j.spec().gpuNeed().declaredMiB(g.totalMiB(), headroom);
      assertTrue(sum + headroom <= g.totalMiB(), "declared " + sum + " + headroom on " + g.totalMiB() + " MiB");
      int count = g.shares().size() + added.size();
      for (GpuStatus.Share s : g.shares()) assertTrue(s.perGpu() == 0 || count <= s.perGpu(), "cap " + s.perGpu() + " < " + count);
      for (Job j : added) {
        int cap = j.spec().gpuNeed().perGpu();
        assertTrue(cap == 0 || count <= cap, "job " + j.id() + " cap " + cap + " < " + count);
      }
    });
  }

  private static void checkFits(List<Job> queue, List<GpuStatus> gpus, Map<Long, WaitReason> blocked, Plan p) {
    Map<String, GpuStatus> byUuid = new HashMap<>();
    gpus.forEach(g -> byUuid.put(g.uuid(), g));
    Set<String> left = new HashSet<>();
    gpus.stream().filter(g -> g.state() == GpuState.FREE).forEach(g -> left.add(g.uuid()));
    Map<Long, Plan.Reservation> byJob = new HashMap<>();
    for (var pl : p.reservations()) assertNull(byJob.put(pl.jobId(), pl), "job placed twice");
    for (Job j : queue) {
      var pl = byJob.get(j.id());
      long fitting = left.stream().filter(u -> GpuFit.fits(j.spec(), byUuid.get(u))).count();
      boolean shouldPlace = !blocked.containsKey(j.id()) && j.spec().gpus() <= fitting;
      assertEquals(shouldPlace, pl != null, "job " + j.id() + " with " + fitting + " fitting GPUs left");
      assertEquals(pl == null, p.waitReasons().containsKey(j.id()), "a job is placed or has a reason");
      if (pl == null) continue;
      assertEquals(j.spec().gpus(), pl.gpus().size());
      for (GpuSlot s : pl.gpus()) {
        GpuStatus g = byUuid.get(s.uuid());
        assertTrue(left.remove(s.uuid()), "GPU " + s + " placed twice or not FREE");
        assertTrue(GpuFit.fits(j.spec(), g), "job " + j.id() + " needing " + j.spec().gpuNeed() + " on " + g.name()
            + " with " + (g.totalBytes() >> 20) + " MiB");
      }
    }
  }

  private static void check(List<Job> queue, List<GpuStatus> gpus, Map<Long, WaitReason> blocked, Plan p) {
    List<Integer> freeIdx = gpus.stream().filter(g -> g.state() == GpuState.FREE).map(GpuStatus::index).sorted().toList();
    Map<Long, Plan.Reservation> byJob = new HashMap<>();
    for (var pl : p.reservations()) assertNull(byJob.put(pl.jobId(), pl), "job placed twice");
    Set<String> used = new HashSet<>();
    List<Integer> consumed = new ArrayList<>();
    int left = freeIdx.size();
    for (Job j : queue) {
      var pl = byJob.get(j.id());
      int want = j.spec().gpus();
      boolean shouldPlace = !blocked.containsKey(j.id()) && want <= left;
      assertEquals(shouldPlace, pl != null, "job " + j.id() + " wants " + want + " with " + left + " left");
      assertEquals(pl == null, p.waitReasons().containsKey(j.id()), "a job is placed or has a reason");
      if (pl == null) continue;
      left -= want;
      assertEquals(want, pl.gpus().size());
      int prev = -1;
      for (GpuSlot s : pl.gpus()) {
        assertTrue(used.add(s.uuid()), "GPU " + s + " placed twice");
        assertTrue(s.index() > prev, "indices ascend");
        prev = s.index();
        consumed.add(s.index());
      }
    }
    assertEquals(freeIdx.subList(0, consumed.size()), consumed, "lowest free indices first");
  }

  // ---- GPUs gather for a job that has waited long

  private static final java.time.Duration GATHER = java.time.Duration.ofMinutes(5);

  private static Plan at(long secondsAfterT0, List<Job> queue, List<GpuStatus> gpus) {
    return Allocator.plan(queue, gpus, Map.of(), new PlanRules(T0.plusSeconds(secondsAfterT0), GATHER, 100));
  }

  @Test
  void beforeItsWaitPassesTheBoundAYoungerJobStillBackfills() {
    var gpus = List.of(free(0), gpu(1, GpuState.RUNNING));
    Plan p = at(1 + 299, List.of(waiting(1, 2), waiting(2, 1)), gpus);
    assertEquals(Map.of(2L, List.of(0)), placed(p));
  }

  @Test
  void afterItsWaitPassesTheBoundFreeGpusGatherForTheOldJobAndYoungerOnesSaySo() {
    var gpus = List.of(free(0), gpu(1, GpuState.RUNNING));
    Plan p = at(1 + 300, List.of(waiting(1, 2), waiting(2, 1), waiting(3, 0)), gpus);
    assertEquals(Map.of(3L, List.of()), placed(p), "only the CPU-only job starts");
    assertTrue(p.waitReasons().get(1L).text().contains("GPUs gather for it"), p.waitReasons().get(1L).text());
    assertEquals("GPUs gather for job 1 (needs 2 GPUs, waiting over 5m); GPU 0 is kept free for it: younger jobs wait",
        p.waitReasons().get(2L).text());
    assertEquals("gathering for 1", p.waitReasons().get(2L).brief());
  }

  @Test
  void theGatheredGpusGoToTheOldJobOnceEnoughAreFree() {
    Plan p = at(1000, List.of(waiting(1, 2), waiting(2, 1)), List.of(free(0), free(1)));
    assertEquals(Map.of(1L, List.of(0, 1)), placed(p));
  }

  @Test
  void gpusDoNotGatherForAJobThatOutsideProcessesKeepFromEverFitting() {
    var gpus = List.of(free(0), gpu(1, GpuState.EXTERNAL), gpu(2, GpuState.UNKNOWN));
    Plan p = at(1000, List.of(waiting(1, 2), waiting(2, 1)), gpus);
    assertEquals(Map.of(2L, List.of(0)), placed(p), "an outside process may hold GPU 1 for ever");
  }

  @Test
  void aBlockedOldJobGathersNothing() {
    var gpus = List.of(free(0), gpu(1, GpuState.RUNNING));
    Plan p = Allocator.plan(List.of(waiting(1, 2), waiting(2, 1)), gpus, Map.of(1L, new WaitReason.GroupHeld("g", "held by the user")),
        new PlanRules(T0.plusSeconds(1000), GATHER, 100));
    assertEquals(Map.of(2L, List.of(0)), placed(p));
  }

  @Test
  void cpuOnlyJobsStartUpToTheRoomLeftAndTheRestSayWhy() {
    var queue = List.of(waiting(1, 0), waiting(2, 0), waiting(3, 0), waiting(4, 1));
    Plan p = Allocator.plan(queue, List.of(free(0)), Map.of(), new PlanRules(T0, GATHER, 2));
    assertEquals(Map.of(1L, List.of(), 2L, List.of(), 4L, List.of(0)), placed(p));
    assertTrue(p.waitReasons().get(3L).text().contains("GQ_MAX_CPU_JOBS"), p.waitReasons().get(3L).text());
    assertEquals(Set.of(3L), p.waitReasons().keySet());
  }

  @Test
  void aJobWaitsUntilItsBeginTimeAndThenStarts() {
    var later = waiting(1, 1);
    later = later.withSpec(later.spec().withBegin(T0.plusSeconds(600).plusNanos(123_456_789)));
    Plan before = Allocator.plan(List.of(later, waiting(2, 1)), List.of(free(0), free(1)), Map.of(),
        new PlanRules(T0.plusSeconds(0), GATHER, 100));
    assertEquals(Map.of(2L, List.of(0)), placed(before), "the GPU goes to the next job meanwhile");
    assertEquals("begins in 10m", before.waitReasons().get(1L).brief());
    assertEquals("may not start before 2025-01-01T00:10:00Z (--begin)", before.waitReasons().get(1L).text());
    Plan after = Allocator.plan(List.of(later), List.of(free(0)), Map.of(), new PlanRules(T0.plusSeconds(601), GATHER, 100));
    assertEquals(Map.of(1L, List.of(0)), placed(after));
  }
}

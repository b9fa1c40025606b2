package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Other gq instances' shares of a GPU, as its machine-wide lease reads SHARED: the GPU is SHARED here
 * with their holders and memory, never FREE for an exclusive job, their processes (holding the GPU's
 * lease file open) are theirs, not outside processes, and this gq's own shares count once.
 */
class ForeignSharesTest {
  static final LeaseHolder.Instance ME = new LeaseHolder.Instance(1000, "alice", "/home/alice/.local/share/gq");
  static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1001, "bob", "/home/bob/.local/share/gq");
  static final long H100 = 81920;
  static final long G20 = GpuNeed.parseMiB("20G");

  static LeaseShare share(LeaseHolder.Instance who, long job, long mib) {
    return new LeaseShare(new LeaseHolder(who, job), mib);
  }

  static DeviceReading card(long... pids) {
    List<GpuProcess> ps = new ArrayList<>();
    for (long p : pids) ps.add(new GpuProcess(p, 1000L << 20));
    return new DeviceReading(0, uuid(0), "NVIDIA H100 80GB HBM3", H100 << 20, 0, ps, null);
  }

  static GpuStatus classify(DeviceReading d, GpuLease lease, Map<Long, ProcessFacts> facts, List<Job> holders) {
    GpuObservation obs = new GpuObservation(new GpuReading(T0, List.of(d), null), facts, Map.of(uuid(0), lease), ME);
    return GpuClassifier.classifyShared(obs, List.of(), holders.isEmpty() ? Map.of() : Map.of(uuid(0), holders), holders).get(0);
  }

  /** A process of another gq's job: it holds the GPU's lease file open. */
  static ProcessFacts bobs(long pid) {
    return new ProcessFacts(pid, pid, pid, null, List.of(), Set.of(uuid(0)));
  }

  static Job holdingShared(long id) {
    Job h = holding(id, JobState.RUNNING, 0);
    return h.withSpec(h.spec().withGpuNeed(GpuNeed.of(G20, List.of(), true, 0)));
  }

  static Job waitingShared(long id) {
    Job w = waiting(id, 1);
    return w.withSpec(w.spec().withGpuNeed(GpuNeed.of(G20, List.of(), true, 0)));
  }

  @Test
  void aGpuOnlyAnotherGqSharesIsSharedWithItsHoldersAndNeverFreeForAnExclusiveJob() {
    GpuLease lease = GpuLease.shared(List.of(share(BOB, 3, G20), share(BOB, 4, G20)));
    GpuStatus g = classify(card(901, 902), lease, Map.of(901L, bobs(901), 902L, bobs(902)), List.of());
    assertEquals(GpuState.SHARED, g.state());
    assertNull(g.ownerJobId());
    assertEquals(List.of(new GpuStatus.Other("bob's job 3", G20), new GpuStatus.Other("bob's job 4", G20)), g.others());
    assertEquals("bob's job 3 (18.6G), bob's job 4 (18.6G); 41.7G left", SharedFit.describe(g, 1024));

    Plan p = Allocator.plan(List.of(waiting(1, 1), waitingShared(2), waitingShared(3), waitingShared(4)), List.of(g), Map.of());
    assertEquals(List.of(2L, 3L), p.reservations().stream().map(Plan.Reservation::jobId).toList(),
        "two 20 GB shares fit beside bob's two with the headroom, a fifth does not");
    assertEquals("needs 1 GPU, 0 free (GPU 0: shared by bob's job 3, bob's job 4)", p.waitReasons().get(1L).text());
    assertEquals("needs 18.6 GiB on a shared GPU: GPU 0 has 4.5 GiB left", p.waitReasons().get(4L).text());
  }

  @Test
  void aProcessThatHoldsNoLeaseFileOnACardOthersShareIsAnOutsideProcess() {
    GpuLease lease = GpuLease.shared(List.of(share(BOB, 3, G20)));
    GpuStatus g = classify(card(901, 777), lease, Map.of(901L, bobs(901), 777L, stranger(777)), List.of());
    assertEquals(GpuState.EXTERNAL, g.state());
    assertEquals("in use by process(es) gq does not manage here: 777", g.detail());
    Plan p = Allocator.plan(List.of(waitingShared(2)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty(), "never beside an outside process");
  }

  @Test
  void aProcessWhoseOpenFilesAreHiddenIsAnotherUsersJobOnlyWhenThatUserSharesTheCard() {
    GpuLease lease = GpuLease.shared(List.of(share(BOB, 3, G20)));
    ProcessFacts hiddenBob = stranger(901).hidden(BOB.uid());
    assertEquals(GpuState.SHARED, classify(card(901), lease, Map.of(901L, hiddenBob), List.of()).state(),
        "bob's process, whose /proc/PID/fd this user cannot read, on a card bob shares");
    GpuStatus carol = classify(card(902), lease, Map.of(902L, stranger(902).hidden(1002)), List.of());
    assertEquals(GpuState.EXTERNAL, carol.state(), "a third user shares nothing here: an outside process");
    GpuStatus mine = classify(card(903), lease, Map.of(903L, stranger(903).hidden(ME.uid())), List.of());
    assertEquals(GpuState.EXTERNAL, mine.state(), "never this gq's own user: its processes' files are readable");
  }

  @Test
  void thisGqsOwnSharesCountOnceAndOthersProcessesAreNotStrangers() {
    Job mine = holdingShared(5);
    GpuLease lease = GpuLease.shared(List.of(share(ME, 5, G20), share(BOB, 3, G20), share(BOB, 4, G20), share(BOB, 7, G20)));
    ProcessFacts myProc = inJob(501, 5).withLeases(Set.of(uuid(0)));
    GpuStatus g = classify(card(501, 901, 902), lease, Map.of(501L, myProc, 901L, bobs(901), 902L, bobs(902)), List.of(mine));
    assertEquals(GpuState.SHARED, g.state());
    assertEquals(List.of(5L), g.shares().stream().map(GpuStatus.Share::jobId).toList());
    assertEquals(3, g.others().size(), "job 5's share of the lease is its own, counted from its reservation");
    assertEquals(4 * G20, g.sharedMiB(1024));
    assertEquals("job 5 (18.6G), bob's job 3 (18.6G), bob's job 4 (18.6G), bob's job 7 (18.6G); 4.5G left",
        SharedFit.describe(g, 1024));
    Plan p = Allocator.plan(List.of(waitingShared(6)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty(), "a fifth 20G share does not fit with the headroom");
  }

  @Test
  void aShareLeftByAnEndedJobOfThisGqOrUnreadableCountsAndIsNamed() {
    GpuLease lease = GpuLease.shared(List.of(share(ME, 9, G20), LeaseShare.unknown()));
    GpuStatus g = classify(card(), lease, Map.of(), List.of());
    assertEquals(GpuState.SHARED, g.state());
    assertEquals(List.of(new GpuStatus.Other("what job 9 left running", G20),
        new GpuStatus.Other("a gq job whose share does not say who it is", H100)), g.others());
    Plan p = Allocator.plan(List.of(waitingShared(2)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty(), "an unreadable share counts as the whole card");
  }

  @Test
  void anExclusiveJobOfThisGqOnACardOthersShareIsUnknown() {
    Job x = holding(6, JobState.STARTING, 0);
    GpuStatus g = classify(card(), GpuLease.shared(List.of(share(BOB, 3, G20))), Map.of(), List.of(x));
    assertEquals(GpuState.UNKNOWN, g.state());
    assertEquals("reserved for job 6 but shared by bob's job 3", g.detail());
  }

  @Test
  void anotherGqsExclusiveLeaseKeepsSharedJobsOff() {
    GpuStatus g = classify(card(901), GpuLease.held(new LeaseHolder(BOB, 3)), Map.of(901L, bobs(901)), List.of());
    assertEquals(GpuState.EXTERNAL, g.state());
    Plan p = Allocator.plan(List.of(waitingShared(2)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 18.6 GiB on a shared GPU: GPU 0: bob's job 3", p.waitReasons().get(2L).text());
  }

  @Test
  void theCapCountsOtherInstancesShares() {
    GpuLease lease = GpuLease.shared(List.of(share(BOB, 3, 1024), share(BOB, 4, 1024)));
    GpuStatus g = classify(card(), lease, Map.of(), List.of());
    Job capped = waiting(2, 1);
    capped = capped.withSpec(capped.spec().withGpuNeed(GpuNeed.of(1024, List.of(), true, 2)));
    Plan p = Allocator.plan(List.of(capped), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 1.0 GiB on a shared GPU: GPU 0 holds 2 shared jobs (--per-gpu 2)", p.waitReasons().get(2L).text());
  }

  /**
   * The invariant across instances, restated from the raw inputs (the leases, the processes, this
   * gq's reservations), not from the classified GPUs: over random cards that this gq's shared and
   * exclusive jobs, other instances' shares (some unreadable, some left by this gq's ended jobs),
   * other instances' exclusive leases and outside processes hold in every mix, no job is placed where
   * an exclusive job of any gq is, no exclusive job where any share is or any process runs, no shared
   * job beside a process no gq job owns, and the declared memory of every instance's shares plus the
   * headroom fits each card and every cap holds.
   */
  @Test
  void randomMixesOfThisGqsAndOtherInstancesSharesKeepTheInvariantAcrossInstances() {
    java.util.Random rnd = new java.util.Random(20261203);
    long[] sizes = {24564, 40536, 81559};
    long[] vrams = {0, GpuNeed.parseMiB("5G"), GpuNeed.parseMiB("10G"), G20, GpuNeed.parseMiB("30G")};
    long headroom = 1024;
    int placedShared = 0;
    for (int round = 0; round < 3000; round++) {
      List<DeviceReading> devices = new ArrayList<>();
      Map<String, GpuLease> leases = new java.util.HashMap<>();
      Map<Long, ProcessFacts> facts = new java.util.HashMap<>();
      Map<String, List<Job>> holders = new java.util.HashMap<>();
      List<Job> live = new ArrayList<>();
      long nextOwn = 100;
      long pid = 10_000;
      int n = 1 + rnd.nextInt(4);
      for (int i = 0; i < n; i++) {
        long total = sizes[rnd.nextInt(sizes.length)];
        List<Job> own = new ArrayList<>();
        if (rnd.nextInt(6) == 0) own.add(holding(nextOwn++, rnd.nextBoolean() ? JobState.RUNNING : JobState.STARTING, i));
        else for (int k = rnd.nextInt(3); k > 0; k--) {
          Job h = holding(nextOwn++, JobState.RUNNING, i);
          long v = vrams[rnd.nextInt(vrams.length)];
          own.add(h.withSpec(h.spec().withGpuNeed(GpuNeed.of(v, List.of(), true, v == 0 ? 2 + rnd.nextInt(4) : 0))));
        }
        List<LeaseShare> shares = new ArrayList<>();
        for (Job j : own)
          if (j.spec().shares() && rnd.nextInt(5) > 0)
            shares.add(share(ME, j.id(), j.spec().gpuNeed().declaredMiB(total, headroom)));
        for (int k = rnd.nextInt(4); k > 0; k--)
          shares.add(switch (rnd.nextInt(8)) {
            case 0 -> LeaseShare.unknown();
            case 1 -> share(ME, 900 + k, 1024 + rnd.nextInt(20_000)); // left by an ended job of this gq
            default -> share(BOB, 50 + k, 1024 + rnd.nextInt(30_000));
          });
        GpuLease lease = switch (rnd.nextInt(10)) {
          case 0 -> GpuLease.held(new LeaseHolder(BOB, 60));
          case 1 -> GpuLease.unreadable("x");
          case 2 -> GpuLease.blocked("a file at its lease");
          default -> shares.isEmpty() ? GpuLease.FREE : GpuLease.shared(shares);
        };
        List<GpuProcess> procs = new ArrayList<>();
        for (Job j : own)
          if (j.state() == JobState.RUNNING && rnd.nextBoolean()) {
            procs.add(new GpuProcess(pid, 500L << 20));
            facts.put(pid, inJob(pid++, j.id()).withLeases(rnd.nextBoolean() ? Set.of(uuid(i)) : Set.of()));
          }
        if (lease.state() != GpuLease.State.FREE && rnd.nextBoolean()) {
          procs.add(new GpuProcess(pid, 500L << 20));
          facts.put(pid, rnd.nextBoolean() ? bobs(pid++).withLeases(Set.of(uuid(i))) : bobs(pid++).hidden(BOB.uid()));
        }
        if (rnd.nextInt(6) == 0) {
          procs.add(new GpuProcess(pid, 500L << 20));
          facts.put(pid, switch (rnd.nextInt(3)) {
            case 0 -> stranger(pid++).withLeases(Set.of(uuid(rnd.nextInt(n))));
            case 1 -> stranger(pid++).hidden(1002);
            default -> stranger(pid++);
          });
        }
        devices.add(new DeviceReading(i, uuid(i), "NVIDIA H100 80GB HBM3", total << 20, 0, procs, null));
        leases.put(uuid(i), lease);
        if (!own.isEmpty()) holders.put(uuid(i), own);
        live.addAll(own);
      }
      GpuObservation obs = new GpuObservation(new GpuReading(T0, devices, null), facts, leases, ME);
      List<GpuStatus> gpus = GpuClassifier.classifyShared(obs, List.of(), holders, live);
      List<Job> queue = new ArrayList<>();
      for (long id = 1, jobs = 1 + rnd.nextInt(8); id <= jobs; id++) {
        Job w = waiting(id, 1);
        long v = vrams[rnd.nextInt(vrams.length)];
        boolean share = rnd.nextInt(4) > 0;
        queue.add(w.withSpec(w.spec().withGpuNeed(share ? GpuNeed.of(v, List.of(), true, v == 0 ? 1 + rnd.nextInt(4) : 0)
            : GpuNeed.of(v, List.of()))));
      }
      Plan p = Allocator.plan(queue, gpus, Map.of());
      for (Job j : queue)
        assertNotEquals(p.reservations().stream().anyMatch(r -> r.jobId() == j.id()), p.waitReasons().containsKey(j.id()),
            "job " + j.id() + " is placed or has a reason");
      Map<String, List<Job>> added = new java.util.HashMap<>();
      for (var r : p.reservations())
        for (var slot : r.gpus())
          added.computeIfAbsent(slot.uuid(), x -> new ArrayList<>()).add(queue.get((int) r.jobId() - 1));
      for (DeviceReading d : devices) {
        List<Job> now = added.getOrDefault(d.uuid(), List.of());
        if (now.isEmpty()) continue;
        GpuLease lease = leases.get(d.uuid());
        List<Job> own = holders.getOrDefault(d.uuid(), List.of());
        String where = "round " + round + " GPU " + d.index() + " lease " + lease + " own " + own.stream().map(Job::id).toList()
            + " procs " + d.processes();
        if (now.stream().anyMatch(j -> !j.spec().shares())) {
          assertEquals(1, now.size(), where);
          assertEquals(GpuLease.State.FREE, lease.state(), "an exclusive job only where no gq holds or shares the lease: " + where);
          assertTrue(own.isEmpty() && d.processes().isEmpty(), where);
          continue;
        }
        placedShared++;
        assertTrue(lease.state() == GpuLease.State.FREE || lease.state() == GpuLease.State.SHARED, where);
        assertTrue(own.stream().allMatch(j -> j.spec().shares()), "never beside an exclusive job: " + where);
        List<LeaseShare> foreign = lease.shares().stream()
            .filter(s -> !(s.known() && s.holder().of(ME) && own.stream().anyMatch(j -> j.id() == s.holder().jobId()))).toList();
        for (GpuProcess proc : d.processes()) {
          ProcessFacts f = facts.get(proc.pid());
          boolean ours = own.stream().anyMatch(j -> Ownership.owns(j, f));
          boolean theirs = !foreign.isEmpty() && (f.leases().contains(d.uuid()) || f.hiddenUid() >= 0
              && foreign.stream().anyMatch(x -> x.known() && x.holder().instance().uid() == f.hiddenUid() && f.hiddenUid() != ME.uid()));
          assertTrue(ours || theirs, "never beside a process no gq job owns: " + where);
        }
        long total = d.totalBytes() >> 20;
        long sum = headroom + dev.gq.core.lease.LeaseRules.declaredMiB(foreign, total);
        int cap = 0;
        List<Job> all = new ArrayList<>(own);
        all.addAll(now);
        for (Job j : all) {
          sum += j.spec().gpuNeed().declaredMiB(total, headroom);
          int c = j.spec().gpuNeed().perGpu();
          if (c > 0 && (cap == 0 || c < cap)) cap = c;
        }
        assertTrue(sum <= total, "declared " + sum + " MiB with the headroom on " + total + ": " + where);
        assertTrue(cap == 0 || all.size() + foreign.size() <= cap, "cap " + cap + ": " + where);
      }
    }
    assertTrue(placedShared > 300, "the rounds place shared jobs beside others' shares often enough: " + placedShared);
  }

  @Test
  void anotherGqsPerGpuCapKeepsMoreSharedJobsOffTheCard() {
    var capped = new LeaseShare(new LeaseHolder(BOB, 3, LeaseHolder.Basis.KERNEL, null), G20, 2);
    GpuLease lease = GpuLease.shared(List.of(capped, share(BOB, 4, G20)));
    GpuStatus g = classify(card(901, 902), lease, Map.of(901L, bobs(901), 902L, bobs(902)), List.of());
    assertEquals(2, g.others().get(0).perGpu());
    Plan p = Allocator.plan(List.of(waitingShared(2)), List.of(g), Map.of());
    assertTrue(p.reservations().isEmpty(), "bob's job 3 allows 2 shared jobs on its GPU, and two are there");
    assertTrue(p.waitReasons().get(2L).text().contains("(--per-gpu 2)"), p.waitReasons().get(2L).text());
  }
}

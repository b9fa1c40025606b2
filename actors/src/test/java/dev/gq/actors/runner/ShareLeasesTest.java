package dev.gq.actors.runner;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An exclusive job takes its GPUs' leases alone; a shared job takes a share of each, declaring its
 * memory against each card's total from its reservation, with the headroom and its own cap, all or
 * none; a refused share sends it back as a held lease does.
 */
class ShareLeasesTest {
  static final LeaseHolder.Instance ME = new LeaseHolder.Instance(1000, "me", "/d/me");
  static final long G80 = 81920;
  static final long G24 = 24576;

  /** Leases in memory that record what was asked; a share whose GPU is in {@code refuse} is refused. */
  static final class Leases implements GpuLeases {
    final List<String> calls = new ArrayList<>();
    final List<String> closed = new ArrayList<>();
    final List<String> refuse = new ArrayList<>();

    @Override
    public Map<String, GpuLease> read(List<String> uuids) {
      return Map.of();
    }

    @Override
    public Held take(List<String> uuids, LeaseHolder holder) {
      calls.add("take " + uuids + " job " + holder.jobId());
      return held("take " + uuids);
    }

    @Override
    public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB, long headroomMiB,
        int perGpuCap) throws Taken {
      for (String u : uuids) if (refuse.contains(u)) throw new Taken("GPU " + u + " cannot hold " + mib + " MiB more");
      calls.add("shares " + uuids + " job " + holder.jobId() + " mib=" + mib + " totals=" + uuids.stream().map(totalMiB::get).toList()
          + " headroom=" + headroomMiB + " cap=" + perGpuCap);
      return held("shares " + uuids);
    }

    private Held held(String what) {
      int fd = 10 + calls.size();
      return new Held() {
        @Override
        public List<Integer> fds() {
          return List.of(fd);
        }

        @Override
        public void close() {
          closed.add(what);
        }
      };
    }
  }

  static Job job(long id, GpuNeed need, String... uuids) {
    List<GpuSlot> gpus = new ArrayList<>();
    for (int i = 0; i < uuids.length; i++) gpus.add(new GpuSlot(uuids[i], i));
    JobSpec spec = new JobSpec(List.of("true"), "/", Map.of(), uuids.length, null, null, null).withGpuNeed(need);
    return new Job(id, spec, JobState.STARTING, Instant.EPOCH, Instant.EPOCH, null, gpus, null, null, "/dev/null", null,
        "tag-" + id, null);
  }

  @Test
  void anExclusiveJobTakesItsLeasesAlone() throws Exception {
    Leases l = new Leases();
    var held = ShareLeases.take(l, job(5, GpuNeed.of(20480, List.of()), "GPU-0", "GPU-1"), new LeaseHolder(ME, 5),
        Map.of("GPU-0", G80, "GPU-1", G80), 1024);
    assertEquals(List.of("take [GPU-0, GPU-1] job 5"), l.calls);
    assertEquals(List.of(11), held.fds());
  }

  @Test
  void aSharedJobTakesAShareOfEachGpuDeclaringItsMemoryWithTheHeadroomAndItsCap() throws Exception {
    Leases l = new Leases();
    var held = ShareLeases.take(l, job(6, GpuNeed.of(20480, List.of(), true, 4), "GPU-0", "GPU-1"), new LeaseHolder(ME, 6),
        Map.of("GPU-0", G80, "GPU-1", G80), 1024);
    assertEquals(List.of("shares [GPU-0, GPU-1] job 6 mib=20480 totals=[81920, 81920] headroom=1024 cap=4"), l.calls);
    assertEquals(List.of(11), held.fds(), "the shares' descriptors go into the launch");
  }

  @Test
  void aJobSharedByCountAloneDeclaresItsPartOfEachCardOnCardsOfTwoSizes() throws Exception {
    Leases l = new Leases();
    var held = ShareLeases.take(l, job(7, GpuNeed.of(0, List.of(), true, 2), "GPU-0", "GPU-1"), new LeaseHolder(ME, 7),
        Map.of("GPU-0", G80, "GPU-1", G24), 1024);
    assertEquals(List.of("shares [GPU-0] job 7 mib=40448 totals=[81920] headroom=1024 cap=2",
        "shares [GPU-1] job 7 mib=11776 totals=[24576] headroom=1024 cap=2"), l.calls);
    assertEquals(List.of(11, 12), held.fds());
    held.close();
    assertEquals(List.of("shares [GPU-0]", "shares [GPU-1]"), l.closed);
  }

  @Test
  void aRefusedShareLetsGoOfTheSharesAlreadyTakenAndSendsTheJobBack() {
    Leases l = new Leases();
    l.refuse.add("GPU-1");
    var e = assertThrows(GpuLeases.Taken.class, () -> ShareLeases.take(l, job(8, GpuNeed.of(0, List.of(), true, 2), "GPU-0",
        "GPU-1"), new LeaseHolder(ME, 8), Map.of("GPU-0", G80, "GPU-1", G24), 1024));
    assertEquals("GPU GPU-1 cannot hold 11776 MiB more", e.getMessage());
    assertEquals(List.of("shares [GPU-0]"), l.closed, "all or none");
  }

  @Test
  void aGpuMissingFromTheReservationsReadingIsRefusedNamingIt() {
    Leases l = new Leases();
    var e = assertThrows(GpuLeases.Taken.class, () -> ShareLeases.take(l, job(9, GpuNeed.of(20480, List.of(), true, 0), "GPU-0"),
        new LeaseHolder(ME, 9), Map.of(), 1024));
    assertEquals("GPU GPU-0 was not in the reading its reservation was made on", e.getMessage());
    assertTrue(l.calls.isEmpty());
  }
}

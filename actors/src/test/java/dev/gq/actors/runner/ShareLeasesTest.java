package dev.gq.actors.runner;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A shared job takes the free leases of its GPUs, leaves this gq's own alone, and never passes another's. */
class ShareLeasesTest {
  static final LeaseHolder.Instance ME = new LeaseHolder.Instance(1000, "me", "/d/me");
  static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/d/alice");

  /** Leases in memory: a take fails while another holds one, all or none. */
  static final class Leases implements GpuLeases {
    final Map<String, LeaseHolder> held = new HashMap<>();
    final List<List<String>> takes = new ArrayList<>();

    @Override
    public Map<String, GpuLease> read(List<String> uuids) {
      Map<String, GpuLease> out = new HashMap<>();
      for (String u : uuids) out.put(u, held.containsKey(u) ? GpuLease.held(held.get(u)) : GpuLease.FREE);
      return out;
    }

    @Override
    public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
      takes.add(List.copyOf(uuids));
      for (String u : uuids) if (held.containsKey(u)) throw new Taken("GPU " + u + " was taken by " + held.get(u).describe(ME));
      for (String u : uuids) held.put(u, holder);
      return GpuLeases.NONE.take(List.of(), holder);
    }

    @Override
    public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB, long headroomMiB,
        int perGpuCap) throws Taken {
      return take(uuids, holder);
    }
  }

  @Test
  void aSharedJobTakesOnlyTheLeasesNoJobOfThisGqHolds() throws Exception {
    Leases l = new Leases();
    l.held.put("GPU-0", new LeaseHolder(ME, 4));
    ShareLeases.take(l, List.of("GPU-0", "GPU-1"), new LeaseHolder(ME, 5), ME);
    assertEquals(List.of(List.of("GPU-1")), l.takes, "GPU-0 is held by this gq's shared job 4");
    assertEquals(4, l.held.get("GPU-0").jobId());
    assertEquals(5, l.held.get("GPU-1").jobId());
  }

  @Test
  void anotherGqsLeaseSendsTheJobBackAsForAnExclusiveJob() {
    Leases l = new Leases();
    l.held.put("GPU-0", new LeaseHolder(ALICE, 12));
    var e = assertThrows(GpuLeases.Taken.class, () -> ShareLeases.take(l, List.of("GPU-0"), new LeaseHolder(ME, 5), ME));
    assertEquals("GPU GPU-0 was taken by alice's job 12", e.getMessage());
  }
}

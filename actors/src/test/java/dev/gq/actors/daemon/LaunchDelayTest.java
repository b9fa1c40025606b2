package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test hook that widens the window before a launch sits in the leases, never in the launch path. */
class LaunchDelayTest {
  /** Leases that note each take. */
  private static final class Noted implements GpuLeases {
    final List<String> taken = new ArrayList<>();

    @Override public Map<String, GpuLease> read(List<String> uuids) {
      return Map.of();
    }

    @Override public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
      taken.add("take " + uuids);
      return NONE.take(uuids, holder);
    }

    @Override public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB,
        long headroomMiB, int perGpuCap) throws Taken {
      taken.add("share " + uuids);
      return NONE.take(uuids, holder);
    }
  }

  @Test
  void withoutTheTestVariableTheLeasesAreTheDaemonsOwn() {
    Noted leases = new Noted();
    assertSame(leases, LaunchDelay.around(leases, Duration.ZERO));
  }

  @Test
  void withItEveryTakeStillReachesTheLeases() throws Exception {
    Noted leases = new Noted();
    GpuLeases slow = LaunchDelay.around(leases, Duration.ofMillis(1));
    assertNotSame(leases, slow);
    slow.take(List.of(), null);
    slow.takeShares(List.of("GPU-a"), null, 1, Map.of(), 0, 0);
    assertEquals(List.of("take []", "share [GPU-a]"), leases.taken);
  }
}

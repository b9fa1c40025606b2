package dev.gq.actors.daemon;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * For tests only (GQ_TEST_LAUNCH_DELAY_MS): the runners' GPU leases, taken only after a pause, so
 * that the window between a job's reservation and its launch is wide enough to kill the daemon in,
 * or for two daemons to race in. Every launch takes its leases first, a CPU-only job's too (none), so
 * the pause comes before each. Reading a lease is not delayed. Unset, the daemon never builds one.
 */
final class LaunchDelay implements GpuLeases {
  private final GpuLeases leases;
  private final Duration delay;

  private LaunchDelay(GpuLeases leases, Duration delay) {
    this.leases = leases;
    this.delay = delay;
  }

  /** {@code leases} as they are when {@code delay} is zero, else taken after it. */
  static GpuLeases around(GpuLeases leases, Duration delay) {
    return delay.isZero() ? leases : new LaunchDelay(leases, delay);
  }

  @Override
  public Map<String, GpuLease> read(List<String> uuids) {
    return leases.read(uuids);
  }

  @Override
  public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
    pause();
    return leases.take(uuids, holder);
  }

  @Override
  public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB, long headroomMiB,
      int perGpuCap) throws Taken {
    pause();
    return leases.takeShares(uuids, holder, mib, totalMiB, headroomMiB, perGpuCap);
  }

  private void pause() throws Taken {
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Taken("the daemon stopped before the job could start");
    }
  }
}

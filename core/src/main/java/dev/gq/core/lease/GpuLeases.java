package dev.gq.core.lease;

import java.util.List;
import java.util.Map;

/**
 * The machine-wide GPU leases every gq on the machine shares, whatever its user or data directory:
 * a job holds one per GPU from before its launch until its last process has ended (the kernel
 * drops it then, even when no daemon runs). Read with every GPU reading; taken by the runner just
 * before the launch.
 */
public interface GpuLeases {

  /** The lease of each GPU, by UUID. Never throws: a lease that cannot be read is UNREADABLE. */
  Map<String, GpuLease> read(List<String> uuids);

  /**
   * Takes the leases of all {@code uuids} for {@code holder}, all or none; throws {@link Taken}
   * naming the holder when another job holds one, or the reason when a lease cannot be taken.
   */
  Held take(List<String> uuids, LeaseHolder holder) throws Taken;

  /** Leases taken: their open file descriptors (passed to the job), released by {@link #close}. */
  interface Held extends AutoCloseable {
    List<Integer> fds();

    @Override
    void close();
  }

  /** A lease that could not be taken; the job goes back to the queue. */
  final class Taken extends Exception {
    public Taken(String message) {
      super(message);
    }
  }

  /** No leases at all: every lease reads FREE and taking one holds nothing (tests, a single gq). */
  GpuLeases NONE = new GpuLeases() {
    @Override
    public Map<String, GpuLease> read(List<String> uuids) {
      return Map.of();
    }

    @Override
    public Held take(List<String> uuids, LeaseHolder holder) {
      return new Held() {
        @Override
        public List<Integer> fds() {
          return List.of();
        }

        @Override
        public void close() {}
      };
    }
  };
}

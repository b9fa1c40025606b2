package dev.gq.core.lease;

import java.util.List;
import java.util.Map;

/**
 * The machine-wide GPU leases every gq on the machine shares, whatever its user or data directory:
 * a job holds one per GPU from before its launch until its last process has ended (the kernel
 * drops it then, even when no daemon runs). Read with every GPU reading; taken by the runner just
 * before the launch. An exclusive job takes its GPUs' leases alone ({@link #take}); a shared job takes
 * a share of each ({@link #takeShares}): several shared jobs of any gq on the machine may share a
 * GPU while their declared memory fits it, never beside an exclusive lease.
 */
public interface GpuLeases {

  /** The lease of each GPU, by UUID. Never throws: a lease that cannot be read is UNREADABLE. */
  Map<String, GpuLease> read(List<String> uuids);

  /**
   * Takes the leases of all {@code uuids} for {@code holder}, all or none; throws {@link Taken}
   * naming the holder when another job holds one, or the reason when a lease cannot be taken.
   */
  Held take(List<String> uuids, LeaseHolder holder) throws Taken;

  /**
   * Takes a share of each of {@code uuids}' leases for {@code holder}, a shared job that declares
   * {@code mib} of memory on each, all or none. A GPU's share is taken only while no exclusive lease
   * is held on it and the memory its live shares declare (any gq's, any user's) plus {@code mib} plus
   * {@code headroomMiB} fits its {@code totalMiB} (by UUID), and, when {@code perGpuCap} is above 0,
   * while fewer than {@code perGpuCap} shared jobs share it ({@link LeaseRules#shareRefusal}); the
   * check and the adding are one step for every gq on the machine. An exclusive {@link #take} of a
   * GPU fails while any share of it is held. Throws {@link Taken} with the one-line reason; the
   * shares held, like leases, last until {@link Held#close} and the last process the fds were passed
   * to has ended.
   */
  Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB, long headroomMiB,
      int perGpuCap) throws Taken;

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

  /** No leases at all: every lease reads FREE and taking one or a share holds nothing (tests, a single gq). */
  GpuLeases NONE = new GpuLeases() {
    @Override
    public Map<String, GpuLease> read(List<String> uuids) {
      return Map.of();
    }

    @Override
    public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB,
        long headroomMiB, int perGpuCap) {
      return take(uuids, holder);
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

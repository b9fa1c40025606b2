package dev.gq.core.health;

/**
 * The heap limit the daemon starts with for a queue of a given length: {@value #BASE_MIB} MiB for
 * an empty or short one, and {@value #PER_JOB_BYTES} bytes more per live job, what one costs at
 * most: its record in the ledger (about 300 bytes) and its row of a listing of the whole queue
 * ({@code gq top}) within the requests' budget, a quarter of the heap. Rounded up to 32 MiB, so
 * that a queue that changes a little keeps its limit; at most {@value #MAX_MIB} MiB. The daemon
 * notes the limit for its queue, and the launcher starts the next daemon with it unless
 * {@code GQ_DAEMON_HEAP} says otherwise.
 */
public final class DaemonHeap {
  public static final int BASE_MIB = 160;
  public static final int PER_JOB_BYTES = 4096;
  public static final int MAX_MIB = 4096;
  private static final int STEP_MIB = 32;

  private DaemonHeap() {}

  /** The limit in MiB for {@code liveJobs} live jobs. */
  public static int mib(long liveJobs) {
    long extra = (Math.max(0, liveJobs) * PER_JOB_BYTES + (1 << 20) - 1) >> 20;
    long stepped = (extra + STEP_MIB - 1) / STEP_MIB * STEP_MIB;
    return (int) Math.min(MAX_MIB, BASE_MIB + stepped);
  }

  /** The limit as the launcher gives it to the JVM ({@code -Xmx}): {@code 160m}. */
  public static String flag(long liveJobs) {
    return mib(liveJobs) + "m";
  }
}

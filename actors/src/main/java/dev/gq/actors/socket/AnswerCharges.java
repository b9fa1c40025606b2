package dev.gq.actors.socket;

import dev.gq.api.ApiException;
import dev.gq.protocol.ProtocolException;

/**
 * Charges a large answer to the request being served on this thread ({@link #bind}): a listing
 * of a whole long queue ({@code gq top}, a script's {@code gq ps --sort queue}) holds every row it
 * read until its command has used them, so its rows are counted against the daemon's shared
 * budget ({@link FrameBudget}) before they are read. Each request keeps the most it was granted
 * until it is served; one that finds no room within a few seconds is refused with one line. A
 * thread serving no request (a test, the daemon's own work) is not charged.
 */
final class AnswerCharges {
  /** What one listed job costs while it is held: its decoded record, its command and its cells. */
  static final int ROW_BYTES = 1024;
  /** How long an answer waits for room before it is refused. */
  static final long WAIT_MILLIS = 5_000;
  private static final ThreadLocal<FrameBudget.Lease> CURRENT = new ThreadLocal<>();

  private AnswerCharges() {}

  /** The request this thread serves from now until {@link #unbind}. */
  static void bind(FrameBudget.Lease lease) {
    CURRENT.set(lease);
  }

  static void unbind() {
    CURRENT.remove();
  }

  /** Charges {@code rows} listed jobs to this thread's request, or refuses them with one line. */
  static void rows(long rows) throws ApiException {
    rows(rows, WAIT_MILLIS);
  }

  /** As {@link #rows(long)}, waiting up to {@code waitMillis} for room. */
  static void rows(long rows, long waitMillis) throws ApiException {
    FrameBudget.Lease lease = CURRENT.get();
    if (lease == null || hold(lease, rows * ROW_BYTES, waitMillis)) return;
    throw new ApiException("the daemon is busy answering other large requests (at most " + (lease.poolBytes() >> 20)
        + " MiB at once) and cannot list " + rows + " jobs now; ask again in a moment, or list fewer (--limit, --state)");
  }

  /**
   * Charges the {@code rows} jobs and GPU spans a plot keeps until it is drawn ({@code gq report
   * --plot}) to this thread's request, at {@link #ROW_BYTES} each: refused in one line when they
   * would take more than the whole budget (a listing is charged at most the whole budget instead,
   * but a plot keeps every row it is given), or when no room is found within {@code waitMillis}.
   */
  static void plotRows(long rows, long waitMillis) throws ApiException {
    FrameBudget.Lease lease = CURRENT.get();
    if (lease == null) return;
    long bytes = rows * ROW_BYTES;
    if (bytes > lease.poolBytes())
      throw new ApiException("cannot plot " + rows + " jobs and GPU spans at once: they need about " + ((bytes + (1 << 20) - 1) >> 20)
          + " MiB, more than the daemon keeps for large answers (" + (lease.poolBytes() >> 20) + " MiB, a quarter of its heap);"
          + " plot a shorter period (--since, --until) or one group (--group), or give the daemon more (GQ_DAEMON_HEAP)");
    if (hold(lease, bytes, waitMillis)) return;
    throw new ApiException("the daemon is busy answering other large requests (at most " + (lease.poolBytes() >> 20)
        + " MiB at once) and cannot hold the " + rows + " jobs and GPU spans of this plot now; ask again in a moment");
  }

  private static boolean hold(FrameBudget.Lease lease, long bytes, long waitMillis) throws ApiException {
    try {
      return lease.hold(bytes, waitMillis);
    } catch (ProtocolException e) {
      throw new ApiException(e.getMessage());
    }
  }
}

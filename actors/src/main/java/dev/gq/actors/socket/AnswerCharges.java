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
    if (lease == null) return;
    try {
      if (lease.hold(rows * ROW_BYTES, waitMillis)) return;
    } catch (ProtocolException e) {
      throw new ApiException(e.getMessage());
    }
    throw new ApiException("the daemon is busy answering other large requests (at most " + (lease.poolBytes() >> 20)
        + " MiB at once) and cannot list " + rows + " jobs now; ask again in a moment, or list fewer (--limit, --state)");
  }
}

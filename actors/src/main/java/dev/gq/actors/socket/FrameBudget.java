package dev.gq.actors.socket;

import dev.gq.protocol.LineReader;
import dev.gq.protocol.ProtocolException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the memory that large request lines take together: a line may be 16 MiB, and decoding and
 * running it costs a few times that, so twelve at once would exhaust the daemon's heap. A
 * connection's line buffer larger than {@code freeBytes} is charged in full against a shared pool
 * of {@code poolBytes}; a connection that cannot get its share within {@code wait} is refused with one
 * line. A {@link Lease} holds a connection's share until the connection is served.
 */
final class FrameBudget {
  /** Line buffers up to this size are not charged: ordinary requests never wait. */
  static final int FREE_BYTES = 1 << 20;
  /** At most this much of large lines at once: one request of the 16 MiB limit, or a few smaller ones. */
  static final int POOL_BYTES = 16 << 20;

  private final Semaphore pool;
  private final int poolBytes;
  private final int freeBytes;
  private final long waitMillis;

  FrameBudget(int poolBytes, int freeBytes, long waitMillis) {
    this.pool = new Semaphore(poolBytes);
    this.poolBytes = poolBytes;
    this.freeBytes = freeBytes;
    this.waitMillis = waitMillis;
  }

  /** The daemon's budget: {@link #POOL_BYTES}, waiting up to 30 s for a share. */
  static FrameBudget standard() {
    return new FrameBudget(POOL_BYTES, FREE_BYTES, 30_000);
  }

  /** Bytes not charged to any connection now. */
  int available() {
    return pool.availablePermits();
  }

  Lease lease() {
    return new Lease();
  }

  /** A large line refused for want of memory: the request may be sent again later. */
  static final class Busy extends ProtocolException {
    Busy(String message) {
      super(message);
    }
  }

  /** One connection's share of the pool; closing it gives the share back. */
  final class Lease implements LineReader.Budget, AutoCloseable {
    private int held;

    @Override
    public void grow(int capacity) throws ProtocolException {
      if (capacity <= freeBytes) return;
      int want = Math.min(capacity, poolBytes) - held;
      if (want <= 0) return;
      try {
        if (!pool.tryAcquire(want, waitMillis, TimeUnit.MILLISECONDS))
          throw new Busy("the daemon is busy reading other large requests (at most "
              + (poolBytes >> 20) + " MiB at once); send this one again in a moment");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Busy("the daemon is stopping; send the request again once it is back");
      }
      held += want;
    }

    @Override
    public void close() {
      pool.release(held);
      held = 0;
    }
  }
}

package dev.gq.actors.socket;

import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the memory that large requests hold together, daemon-wide: a request line may be 16 MiB,
 * a {@code gq mcp} message as long, and an answer (a listing of a long queue, a tool's output) as
 * large as the queue; decoding and running one costs a few times its size, so a dozen at once
 * would exhaust the heap. A charge ({@link Lease}) larger than {@code freeBytes} is charged in full
 * against one pool of {@code poolBytes} (a quarter of the heap's limit, and at least one longest
 * line); a charge that cannot grow within its wait is refused with one line. Each request holds
 * its charge until it is served; a single charge never takes more than the whole pool, so any one
 * request fits alone.
 */
final class FrameBudget implements RequestMemory {
  /** Charges up to this size are not counted: ordinary requests never wait. */
  static final int FREE_BYTES = 1 << 20;
  /** The smallest pool: one request of the 16 MiB line limit. */
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

  /** The daemon's budget: a quarter of the heap's limit (at least {@link #POOL_BYTES}), waiting up to 30 s for a share. */
  static FrameBudget standard() {
    return new FrameBudget(poolFor(Runtime.getRuntime().maxMemory()), FREE_BYTES, 30_000);
  }

  /** The pool for a heap limit of {@code maxHeapBytes}: a quarter of it, at least {@link #POOL_BYTES}. */
  static int poolFor(long maxHeapBytes) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(POOL_BYTES, maxHeapBytes / 4));
  }

  /** Bytes not charged to any request now. */
  int available() {
    return pool.availablePermits();
  }

  int poolBytes() {
    return poolBytes;
  }

  Lease lease() {
    return new Lease();
  }

  @Override
  public Lease charge() {
    return lease();
  }

  /** A large request refused for want of memory: it may be sent again later. */
  static final class Busy extends ProtocolException {
    Busy(String message) {
      super(message);
    }
  }

  /** One request's share of the pool; closing it gives the share back. */
  final class Lease implements RequestMemory.Charge {
    private int held;
    private boolean closed;

    /** Holds at least {@code capacity} bytes of a line being read, waiting for room up to the budget's wait. */
    @Override
    public void grow(int capacity) throws ProtocolException {
      if (!hold(capacity, waitMillis))
        throw new Busy("the daemon is busy reading other large requests (at most " + (poolBytes >> 20)
            + " MiB at once); send this one again in a moment");
    }

    /**
     * Holds at least {@code bytes} (at most the whole pool), waiting up to {@code wait} ms for room;
     * false when there was none. A closed lease (its request served) holds nothing more.
     */
    synchronized boolean hold(long bytes, long wait) throws ProtocolException {
      if (bytes <= freeBytes || closed) return true;
      int want = (int) Math.min(bytes, poolBytes) - held;
      if (want <= 0) return true;
      try {
        if (!pool.tryAcquire(want, wait, TimeUnit.MILLISECONDS)) return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Busy("the daemon is stopping; send the request again once it is back");
      }
      held += want;
      return true;
    }

    int poolBytes() {
      return poolBytes;
    }

    @Override
    public synchronized void close() {
      pool.release(held);
      held = 0;
      closed = true;
    }
  }
}

package dev.gq.protocol;

/**
 * The memory a process lets its requests hold at once: each request takes a {@link Charge}, which
 * grows as it holds more (a long line read, a large answer made) and is given back when closed. In
 * the daemon one bound is shared by every request; a charge that cannot grow in time is refused
 * with the one line to show. Elsewhere nothing is bounded ({@link #UNBOUNDED}).
 */
public interface RequestMemory {
  /** A new charge, holding nothing yet. */
  Charge charge();

  /** What one request holds: at least the most it was granted by {@link #grow}, until closed. */
  interface Charge extends LineReader.Budget, AutoCloseable {
    @Override
    void close();
  }

  /** The charge of no bound: it grows at once and holds nothing. */
  Charge FREE = new Charge() {
    @Override public void grow(int capacity) { }

    @Override public void close() { }
  };

  /** No bound: every charge grows at once. */
  RequestMemory UNBOUNDED = () -> FREE;
}

package dev.gq.actors.daemon;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives memory back once the daemon falls quiet after work. The serial collector promotes what a
 * busy queue allocates into the old generation, where it stays as garbage (and as committed,
 * resident heap) until a full collection, which an idle daemon never needs; and the C library keeps
 * what SQLite and the JDK freed. So, looked at every {@code interval} on the blocking pool: when no
 * collection ran since the last look (nothing is being allocated: the daemon is quiet) and the old
 * generation grew by {@link #GROWTH_BYTES} or more since the last full collection, one full
 * collection (the heap then shrinks to what is live plus 15%, as the daemon's flags say),
 * then {@code malloc_trim} where the C library has it. An idle daemon's slow allocation never adds
 * up to the growth, so it is not collected again and again.
 */
final class IdleCollection implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(IdleCollection.class);
  /** How much the old generation must have grown since the last full collection. */
  static final long GROWTH_BYTES = 8L << 20;

  private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
  private final List<MemoryPoolMXBean> old = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == MemoryType.HEAP && (p.getName().contains("Old") || p.getName().contains("Tenured")))
      .toList();
  private long lastCollections = -1;
  private long baseline = oldUsed();

  /** Whether to collect now: quiet since the last look, and the old generation grown enough since the last full collection. */
  static boolean due(long collections, long lastCollections, long oldUsed, long baseline) {
    return collections == lastCollections && oldUsed - baseline >= GROWTH_BYTES;
  }

  @Override
  public void run() {
    long collections = collections();
    long used = oldUsed();
    boolean due = due(collections, lastCollections, used, baseline);
    if (!due) {
      lastCollections = collections;
      if (used < baseline) baseline = used; // a full collection of the JVM's own
      return;
    }
    System.gc();
    baseline = oldUsed();
    lastCollections = collections();
    boolean trimmed = NativeHeap.trim();
    LOG.debug("quiet after work: full collection, old generation {} -> {} KiB{}", used >> 10, baseline >> 10,
        trimmed ? ", native heap trimmed" : "");
  }

  private long collections() {
    long n = 0;
    for (GarbageCollectorMXBean c : collectors) n += Math.max(0, c.getCollectionCount());
    return n;
  }

  private long oldUsed() {
    long n = 0;
    for (MemoryPoolMXBean p : old) n += p.getUsage().getUsed();
    return n;
  }
}

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
 * resident heap) until a full collection, which an idle daemon never needs; the old generation
 * grows when promotions fill it and shrinks only at a full collection; and the C library keeps what
 * SQLite, the JDK and the compiler freed. So, looked at every {@code interval} on the blocking
 * pool: when no collection ran since the last look (nothing is being allocated: the daemon is
 * quiet) and there was work since the last full collection ({@link #due}), one full collection
 * (the heap then shrinks to what is live plus the free share the daemon's flags allow), then
 * {@code malloc_trim} where the C library has it. An idle daemon allocates slowly: it meets one of
 * the marks rarely, and is then collected once.
 */
final class IdleCollection implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(IdleCollection.class);
  /** How much the old generation must have grown since the last full collection. */
  static final long GROWTH_BYTES = 8L << 20;
  /** How much more memory the old generation must have taken from the system since the last full collection. */
  static final long COMMITTED_GROWTH_BYTES = 2L << 20;
  /** How many young collections since the last full one mean work (at 4-12 MiB of eden, 80-240 MiB allocated). */
  static final long WORK_COLLECTIONS = 20;

  /**
   * The heap at one look: collections so far, young and full, and the old generation's used and
   * committed bytes.
   */
  record Heap(long young, long full, long oldUsed, long oldCommitted) {}

  private final List<GarbageCollectorMXBean> fullCollectors;
  private final List<GarbageCollectorMXBean> youngCollectors;
  private final List<MemoryPoolMXBean> old = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == MemoryType.HEAP && isOld(p.getName()))
      .toList();
  private Heap lastLook;
  private Heap afterFull;
  /** Whether the last full collection was the JVM's own, not one of these. */
  private boolean theirs;

  IdleCollection() {
    List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    fullCollectors = all.stream().filter(c -> isFull(c.getName())).toList();
    youngCollectors = all.stream().filter(c -> !fullCollectors.contains(c)).toList();
    lastLook = heap();
    afterFull = lastLook;
  }

  /** The collector of the whole heap, by its name: the serial collector's MarkSweepCompact (PS MarkSweep, G1 Old Generation). */
  static boolean isFull(String collector) {
    return collector.contains("MarkSweep") || collector.contains("Old");
  }

  private static boolean isOld(String pool) {
    return pool.contains("Old") || pool.contains("Tenured");
  }

  /**
   * Whether to collect now: no collection since the last look (quiet), and the last full collection
   * was the JVM's own ({@code afterTheirs}: it makes one only when work fills the heap, and keeps
   * the heap it grew for that work; what the work left after it stays in the old generation), or
   * since the last full collection the old generation grew by {@link #GROWTH_BYTES}, or took {@link
   * #COMMITTED_GROWTH_BYTES} more memory from the system (the serial collector grows it when
   * promotions fill it; only a full collection gives it back; an idle daemon's slow promotions
   * grow it by less at a time), or {@link #WORK_COLLECTIONS} young collections ran.
   */
  static boolean due(Heap now, Heap lastLook, Heap afterFull, boolean afterTheirs) {
    boolean quiet = now.young() == lastLook.young() && now.full() == lastLook.full();
    return quiet && (afterTheirs || now.oldUsed() - afterFull.oldUsed() >= GROWTH_BYTES
        || now.oldCommitted() - afterFull.oldCommitted() >= COMMITTED_GROWTH_BYTES
        || now.young() - afterFull.young() >= WORK_COLLECTIONS);
  }

  @Override
  public void run() {
    Heap now = heap();
    if (now.full() != afterFull.full()) {
      afterFull = now; // a full collection of the JVM's own: what it left is the new mark
      theirs = true;
    } else if (due(now, lastLook, afterFull, theirs)) {
      System.gc();
      Heap after = heap();
      boolean trimmed = NativeHeap.trim();
      LOG.debug("quiet after work: full collection, old generation {} -> {} KiB used, {} -> {} KiB committed{}",
          now.oldUsed() >> 10, after.oldUsed() >> 10, now.oldCommitted() >> 10, after.oldCommitted() >> 10,
          trimmed ? ", native heap trimmed" : "");
      afterFull = after;
      theirs = false;
      now = after;
    }
    lastLook = now;
  }

  private Heap heap() {
    long used = 0;
    long committed = 0;
    for (MemoryPoolMXBean p : old) {
      used += p.getUsage().getUsed();
      committed += p.getUsage().getCommitted();
    }
    return new Heap(count(youngCollectors), count(fullCollectors), used, committed);
  }

  private static long count(List<GarbageCollectorMXBean> collectors) {
    long n = 0;
    for (GarbageCollectorMXBean c : collectors) n += Math.max(0, c.getCollectionCount());
    return n;
  }
}

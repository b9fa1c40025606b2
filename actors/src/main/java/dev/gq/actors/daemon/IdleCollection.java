package dev.gq.actors.daemon;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives memory back once the daemon falls quiet after work. The serial collector promotes what a
 * busy queue allocates into the old generation, where it stays as garbage (and as committed,
 * resident heap) until a full collection, which an idle daemon never needs; the old generation
 * grows when promotions fill it and shrinks only at a full collection; and the C library keeps what
 * SQLite, the JDK and the compiler freed. So, looked at every {@code interval} on the blocking
 * pool: when no collection ran and no client was served since the last look (nothing is being
 * allocated and no request is being answered: the daemon is quiet) and there was work since the
 * last full collection ({@link #due}), one full collection
 * (the heap then shrinks to what is live plus the free share the daemon's flags allow), then
 * {@code malloc_trim} where the C library has it. An idle daemon allocates slowly: it meets one of
 * the marks rarely, and is then collected once. Work that meets no mark (a batch of a thousand jobs)
 * still leaves the C library holding what SQLite and the compiler freed meanwhile, several MiB, and
 * the compiler goes on compiling the work's paths after the collection: once quiet, at most every
 * {@link #TRIM_SPACING} and only after collections or compilations since the last trim, the C
 * library's heap alone is trimmed ({@link #trimDue}), well under a millisecond's work that an idle
 * daemon does about once a minute.
 */
final class IdleCollection implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(IdleCollection.class);
  /** How much the old generation must have grown since the last full collection. */
  static final long GROWTH_BYTES = 8L << 20;
  /** How much more memory the old generation must have taken from the system since the last full collection. */
  static final long COMMITTED_GROWTH_BYTES = 2L << 20;
  /** How many young collections since the last full one mean work (at 4-12 MiB of eden, 80-240 MiB allocated). */
  static final long WORK_COLLECTIONS = 20;
  /** The least time between two trims of the C library's heap alone. */
  static final Duration TRIM_SPACING = Duration.ofSeconds(10);

  /**
   * The daemon at one look: collections so far, young and full, the old generation's used and
   * committed bytes, the JIT compiler's time so far in ms (its work frees memory into the C
   * library's heap), and the frames sent to clients so far ({@link ClientActivity}).
   */
  record Heap(long young, long full, long oldUsed, long oldCommitted, long compiledMs, long served) {
    Heap(long young, long full, long oldUsed, long oldCommitted) {
      this(young, full, oldUsed, oldCommitted, 0, 0);
    }

    /**
     * Whether nothing was collected and no client served since {@code before}: a long request such
     * as {@code gq top} allocates in bursts a few seconds apart, between which no collection runs,
     * and a full collection there (80-90 ms with 100,000 waiting jobs) would cost it more than its
     * screens.
     */
    boolean quietSince(Heap before) {
      return young == before.young && full == before.full && served == before.served;
    }
  }

  private final List<GarbageCollectorMXBean> fullCollectors;
  private final List<GarbageCollectorMXBean> youngCollectors;
  private final List<MemoryPoolMXBean> old = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == MemoryType.HEAP && isOld(p.getName()))
      .toList();
  private Heap lastLook;
  private Heap afterFull;
  private Heap lastTrim;
  private long lastTrimNanos = System.nanoTime();
  /** Whether the last full collection was the JVM's own, not one of these. */
  private boolean theirs;

  /** The frames sent to clients so far. */
  private final LongSupplier served;
  private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();

  IdleCollection(LongSupplier served) {
    this.served = served;
    List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    fullCollectors = all.stream().filter(c -> isFull(c.getName())).toList();
    youngCollectors = all.stream().filter(c -> !fullCollectors.contains(c)).toList();
    lastLook = heap();
    afterFull = lastLook;
    lastTrim = lastLook;
  }

  /** The collector of the whole heap, by its name: the serial collector's MarkSweepCompact (PS MarkSweep, G1 Old Generation). */
  static boolean isFull(String collector) {
    return collector.contains("MarkSweep") || collector.contains("Old");
  }

  private static boolean isOld(String pool) {
    return pool.contains("Old") || pool.contains("Tenured");
  }

  /**
   * Whether to collect now: quiet since the last look ({@link Heap#quietSince}), and the last full
   * collection was the JVM's own ({@code afterTheirs}: it makes one only when work fills the heap, and keeps
   * the heap it grew for that work; what the work left after it stays in the old generation), or
   * since the last full collection the old generation grew by {@link #GROWTH_BYTES}, or took {@link
   * #COMMITTED_GROWTH_BYTES} more memory from the system (the serial collector grows it when
   * promotions fill it; only a full collection gives it back; an idle daemon's slow promotions
   * grow it by less at a time), or {@link #WORK_COLLECTIONS} young collections ran.
   */
  static boolean due(Heap now, Heap lastLook, Heap afterFull, boolean afterTheirs) {
    return now.quietSince(lastLook) && (afterTheirs || now.oldUsed() - afterFull.oldUsed() >= GROWTH_BYTES
        || now.oldCommitted() - afterFull.oldCommitted() >= COMMITTED_GROWTH_BYTES
        || now.young() - afterFull.young() >= WORK_COLLECTIONS);
  }

  /**
   * Whether to trim the C library's heap alone: quiet since the last look ({@link Heap#quietSince}),
   * the last trim {@link #TRIM_SPACING} ago or more, and since it a collection or a compilation
   * (the daemon did something: a request, a job, a reading's work, or the compiler caught up with
   * them; it compiles a little every few seconds for minutes after work, so it is not waited for).
   */
  static boolean trimDue(Heap now, Heap lastLook, Heap lastTrim, long sinceTrimNanos) {
    return now.quietSince(lastLook) && sinceTrimNanos >= TRIM_SPACING.toNanos() && busy(now, lastTrim);
  }

  private static boolean busy(Heap now, Heap before) {
    return now.young() != before.young() || now.full() != before.full() || now.compiledMs() != before.compiledMs();
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
      lastTrim = now;
      lastTrimNanos = System.nanoTime();
    } else if (trimDue(now, lastLook, lastTrim, System.nanoTime() - lastTrimNanos)) {
      long t0 = System.nanoTime();
      boolean trimmed = NativeHeap.trim();
      lastTrimNanos = System.nanoTime();
      LOG.debug("quiet after work: native heap {} in {} us", trimmed ? "trimmed" : "left", (lastTrimNanos - t0) / 1000);
      lastTrim = now;
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
    return new Heap(count(youngCollectors), count(fullCollectors), used, committed, compiledMs(), served.getAsLong());
  }

  private long compiledMs() {
    return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
  }

  private static long count(List<GarbageCollectorMXBean> collectors) {
    long n = 0;
    for (GarbageCollectorMXBean c : collectors) n += Math.max(0, c.getCollectionCount());
    return n;
  }
}

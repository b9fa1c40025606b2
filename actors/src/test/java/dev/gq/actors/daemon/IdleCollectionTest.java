package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.actors.daemon.IdleCollection.Heap;
import org.junit.jupiter.api.Test;

class IdleCollectionTest {
  private static final long MIB = 1L << 20;
  /** Right after a full collection: 60 MiB used of 70 committed. */
  private static final Heap AFTER_FULL = new Heap(100, 5, 60 * MIB, 70 * MIB);

  @Test
  void collectsOnceQuietAfterTheOldGenerationGrew() {
    Heap now = new Heap(105, 5, 100 * MIB, 120 * MIB);
    assertTrue(IdleCollection.due(now, now, AFTER_FULL, false));
  }

  @Test
  void neverWhileCollectionsStillRun() {
    Heap now = new Heap(106, 5, 100 * MIB, 120 * MIB);
    assertFalse(IdleCollection.due(now, new Heap(105, 5, 99 * MIB, 120 * MIB), AFTER_FULL, false), "a young collection since the last look: busy");
    assertFalse(IdleCollection.due(now, new Heap(106, 4, 99 * MIB, 120 * MIB), AFTER_FULL, false), "a full collection since the last look: busy");
  }

  @Test
  void neverForTheSlowGrowthOfAnIdleDaemon() {
    Heap below = new Heap(101, 5, 60 * MIB + IdleCollection.GROWTH_BYTES - 1, 70 * MIB);
    assertFalse(IdleCollection.due(below, below, AFTER_FULL, false));
    Heap at = new Heap(101, 5, 60 * MIB + IdleCollection.GROWTH_BYTES, 70 * MIB);
    assertTrue(IdleCollection.due(at, at, AFTER_FULL, false));
  }

  @Test
  void collectsOnceTheOldGenerationTookMoreMemory() {
    // work filled the old generation's free share and it grew, though by less than the growth mark:
    // only a full collection gives that memory back
    Heap grown = new Heap(103, 5, 66 * MIB, 70 * MIB + IdleCollection.COMMITTED_GROWTH_BYTES);
    assertTrue(IdleCollection.due(grown, grown, AFTER_FULL, false));
    // an idle daemon's slow promotions grow it a little at a time: not worth a full collection
    Heap little = new Heap(103, 5, 66 * MIB, 70 * MIB + IdleCollection.COMMITTED_GROWTH_BYTES - 1);
    assertFalse(IdleCollection.due(little, little, AFTER_FULL, false));
  }

  @Test
  void collectsOnceQuietAfterManyYoungCollections() {
    // work whose garbage died young: the old generation barely moved, but a full collection still
    // gives back what the C library and the old generation kept
    Heap busy = new Heap(100 + IdleCollection.WORK_COLLECTIONS, 5, 61 * MIB, 70 * MIB);
    assertTrue(IdleCollection.due(busy, busy, AFTER_FULL, false));
    Heap fewer = new Heap(100 + IdleCollection.WORK_COLLECTIONS - 1, 5, 61 * MIB, 70 * MIB);
    assertFalse(IdleCollection.due(fewer, fewer, AFTER_FULL, false));
  }

  @Test
  void collectsOnceQuietAfterAFullCollectionOfTheJvmsOwn() {
    // the JVM collected in the middle of a long batch and grew the heap for it; the rest of the
    // batch then left its garbage in the old generation without growing it much more
    Heap after = new Heap(102, 5, 61 * MIB, 70 * MIB);
    assertTrue(IdleCollection.due(after, after, AFTER_FULL, true));
    assertFalse(IdleCollection.due(after, after, AFTER_FULL, false), "after one of its own: nothing to do");
    assertFalse(IdleCollection.due(after, new Heap(101, 5, 61 * MIB, 70 * MIB), AFTER_FULL, true), "not while busy");
  }

  private static final long SPACED = IdleCollection.TRIM_SPACING.toNanos();

  @Test
  void trimsTheNativeHeapOnceQuietAfterAnyCollectionSinceTheLastTrim() {
    Heap trimmed = new Heap(100, 5, 60 * MIB, 70 * MIB);
    // a batch of a thousand jobs: three young collections, no mark of a full one met
    Heap after = new Heap(103, 5, 61 * MIB, 70 * MIB);
    assertFalse(IdleCollection.due(after, after, AFTER_FULL, false));
    assertTrue(IdleCollection.trimDue(after, after, trimmed, SPACED));
    assertFalse(IdleCollection.trimDue(after, new Heap(102, 5, 61 * MIB, 70 * MIB), trimmed, SPACED), "not while collections still run");
    assertFalse(IdleCollection.trimDue(after, after, after, SPACED), "nothing ran since the last trim");
    assertFalse(IdleCollection.trimDue(after, after, trimmed, SPACED - 1), "not sooner than the spacing");
    Heap full = new Heap(100, 6, 50 * MIB, 60 * MIB);
    assertTrue(IdleCollection.trimDue(full, full, trimmed, SPACED), "a full collection counts too");
  }

  @Test
  void trimsAgainOnceTheCompilerWentOnWithTheWork() {
    // trimmed with the full collection after a batch; the compiler then went on with the batch's
    // paths, a little at each look: it is not waited for
    Heap trimmed = new Heap(103, 6, 50 * MIB, 60 * MIB, 4_000, 0);
    Heap lastLook = new Heap(103, 6, 50 * MIB, 60 * MIB, 4_250, 0);
    Heap compiling = new Heap(103, 6, 50 * MIB, 60 * MIB, 4_300, 0);
    assertTrue(IdleCollection.trimDue(compiling, lastLook, trimmed, SPACED));
    assertFalse(IdleCollection.trimDue(trimmed, trimmed, trimmed, 100 * SPACED), "neither compiled nor collected since");
  }

  @Test
  void neverWhileAClientIsServedBetweenCollections() {
    // gq top on a long queue: its screens go out every second, its garbage is collected every few
    Heap lastLook = new Heap(105, 5, 100 * MIB, 120 * MIB, 0, 40);
    Heap now = new Heap(105, 5, 100 * MIB, 120 * MIB, 0, 42);
    assertFalse(IdleCollection.due(now, lastLook, AFTER_FULL, false));
    assertFalse(IdleCollection.trimDue(now, lastLook, AFTER_FULL, SPACED));
    assertTrue(IdleCollection.due(now, now, AFTER_FULL, false), "once it has gone");
    assertTrue(IdleCollection.trimDue(now, now, AFTER_FULL, SPACED));
  }

  @Test
  void tellsTheFullCollectorFromTheYoungOne() {
    assertTrue(IdleCollection.isFull("MarkSweepCompact"));
    assertFalse(IdleCollection.isFull("Copy"));
    assertTrue(IdleCollection.isFull("G1 Old Generation"));
    assertFalse(IdleCollection.isFull("G1 Young Generation"));
  }
}

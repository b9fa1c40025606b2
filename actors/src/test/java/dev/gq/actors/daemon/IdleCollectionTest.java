package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class IdleCollectionTest {
  private static final long MIB = 1L << 20;

  @Test
  void collectsOnceQuietAfterTheOldGenerationGrew() {
    assertTrue(IdleCollection.due(40, 40, 100 * MIB, 60 * MIB));
  }

  @Test
  void neverWhileCollectionsStillRun() {
    assertFalse(IdleCollection.due(41, 40, 100 * MIB, 60 * MIB), "the daemon is still allocating: busy");
  }

  @Test
  void neverForTheSlowGrowthOfAnIdleDaemon() {
    assertFalse(IdleCollection.due(40, 40, 60 * MIB + IdleCollection.GROWTH_BYTES - 1, 60 * MIB));
    assertTrue(IdleCollection.due(40, 40, 60 * MIB + IdleCollection.GROWTH_BYTES, 60 * MIB));
  }
}

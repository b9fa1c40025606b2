package dev.gq.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DaemonHeapTest {
  @Test
  void aShortQueueKeepsTheBaseHeapAndALongOneGetsFourKibPerJobInStepsOfThirtyTwoMib() {
    assertEquals("160m", DaemonHeap.flag(0));
    assertEquals(192, DaemonHeap.mib(1));
    assertEquals(192, DaemonHeap.mib(8192));
    assertEquals(224, DaemonHeap.mib(8193));
    assertEquals(160 + 416, DaemonHeap.mib(100_000));
    assertEquals(DaemonHeap.MAX_MIB, DaemonHeap.mib(10_000_000));
  }
}

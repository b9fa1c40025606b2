package dev.gq.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobIdRangesTest {
  @Test
  void idsPastAPointAreCountedFromTheirRuns() {
    JobIdRanges r = JobIdRanges.of(new long[] {7, 3, 4, 5, 5, 10, 11, 12});
    assertEquals(8 - 1, r.countFrom(1), "3..5, 7, 10..12");
    assertEquals(4, r.countFrom(6));
    assertEquals(2, r.countFrom(11));
    assertEquals(0, r.countFrom(13));
    assertEquals(7, r.firstFrom(6));
    assertEquals(11, r.firstFrom(11));
    assertEquals(0, r.firstFrom(13));
    assertEquals(12, r.last());
    assertTrue(r.contains(4));
    assertFalse(r.contains(6));
  }

  @Test
  void noIdsAreNoRuns() {
    JobIdRanges r = JobIdRanges.of(new long[0]);
    assertEquals(0, r.countFrom(1));
    assertEquals(0, r.last());
    assertFalse(r.contains(1));
  }
}

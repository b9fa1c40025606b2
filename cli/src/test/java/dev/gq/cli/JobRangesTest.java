package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobRangesTest {

  @Test
  void idsRangesAndCommaLists() {
    List<long[]> r = JobRanges.parseAll(List.of("12", " 300-440 ", "1,5-6"));
    assertEquals(4, r.size());
    assertArrayEquals(new long[] {12, 12}, r.get(0));
    assertArrayEquals(new long[] {300, 440}, r.get(1));
    assertArrayEquals(new long[] {1, 1}, r.get(2));
    assertArrayEquals(new long[] {5, 6}, r.get(3));
  }

  @Test
  void malformedSelectorIsAUsageError() {
    for (String bad : List.of("abc", "-3", "1-", "1-2-3", "", "1,,2", "99999999999999999999")) {
      UsageException e = assertThrows(UsageException.class, () -> JobRanges.parseAll(List.of(bad)), bad);
      assertEquals("invalid job id or range '" + bad + "'; use a number like 12 or 300-440", e.getMessage());
    }
  }

  @Test
  void backwardsRangeIsAUsageError() {
    UsageException e = assertThrows(UsageException.class, () -> JobRanges.parseAll(List.of("440-300")));
    assertEquals("invalid range '440-300': the first id must not exceed the second", e.getMessage());
  }

  @Test
  void singleIds() {
    assertEquals(42, JobRanges.id(" 42 "));
    assertTrue(JobRanges.isPlainId("42"));
    assertFalse(JobRanges.isPlainId("4-2"));
    assertEquals("invalid job id '4-2'; use a number like 12",
        assertThrows(UsageException.class, () -> JobRanges.id("4-2")).getMessage());
  }
}

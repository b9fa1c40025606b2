package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BatchPartsTest {
  @Test
  void aHundredThousandLinesAreFivePartsOfTheLargestWrite() {
    assertEquals(5, BatchParts.count(100_000));
    assertEquals(1, BatchParts.count(Submissions.MAX_BATCH));
    assertEquals(2, BatchParts.count(Submissions.MAX_BATCH + 1));
    assertEquals(80_000, BatchParts.start(4));
    assertEquals(100_000, BatchParts.end(4, 100_000));
    assertEquals(20_001, BatchParts.end(1, 20_001));
  }

  @Test
  void aPartRefusedAfterOthersSaysWhatIsQueuedAndHowToFinishSafely() {
    assertEquals("batch line 40001 and the lines after it were not queued: the disk is full; the 40000 lines before it"
        + " (up to line 40000) are queued and stay so: submit the lines from line 40001 on again, or the whole batch again"
        + " if every line has a \"key\" (the lines already queued are then skipped)",
        BatchParts.partlyQueued("the disk is full", 40_001, 40_000, 40_000));
  }
}

package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HistoryLagTest {
  @Test
  void aReadSideAtTheJournalsEndNeedsNoCatchUp() {
    HistoryLag lag = new HistoryLag(1200, 1200);
    assertTrue(lag.upToDate());
    assertEquals(0, lag.missing());
    assertFalse(lag.ahead());
  }

  @Test
  void anEmptyHistoryAndAnEmptyJournalAreUpToDate() {
    assertTrue(new HistoryLag(0, 0).upToDate());
  }

  @Test
  void aReadSideBehindTheJournalMissesTheEventsInBetween() {
    HistoryLag lag = new HistoryLag(1197, 1200);
    assertFalse(lag.upToDate());
    assertEquals(3, lag.missing());
    assertEquals(1200, new HistoryLag(0, 1200).missing());
  }

  @Test
  void aReadSideAheadOfTheJournalIsNotCaughtUpBackwards() {
    HistoryLag lag = new HistoryLag(1300, 1200);
    assertTrue(lag.ahead());
    assertTrue(lag.upToDate());
    assertEquals(0, lag.missing());
  }
}

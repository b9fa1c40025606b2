package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScreenFitTest {
  @Test
  void offATerminalEveryLiveJobAndTheTwentyNewestEndedOnesAreShown() {
    ScreenFit fit = ScreenFit.of(0, 0, 0, 3, 100_000, 21, "gq ps");
    assertFalse(fit.cut());
    assertEquals(20, fit.ended());
    assertEquals(-1, fit.waiting());
    assertNull(fit.closing());
  }

  @Test
  void whenTheLiveJobsFitTheEndedOnesFillTheRestOfTheScreen() {
    // 24 lines: the header, 5 live jobs, the note on what is left out and the prompt leave 16
    ScreenFit fit = ScreenFit.of(24, 80, 0, 3, 2, 21, "gq ps");
    assertFalse(fit.cut());
    assertEquals(16, fit.ended());
    assertEquals(20, ScreenFit.of(50, 80, 0, 3, 2, 21, "gq ps").ended());
  }

  @Test
  void aLongQueueShowsTheBusyJobsAndTheNewestWaitingOnesThatFitAndSaysHowManyMoreWait() {
    // 50 lines: the header, the closing line and the prompt leave 47 rows; 2 notices take 2 of them
    ScreenFit fit = ScreenFit.of(50, 200, 2, 5, 100_000, 21, "gq ps");
    assertTrue(fit.cut());
    assertEquals(0, fit.ended());
    assertEquals(47 - 2 - 5, fit.waiting());
    assertEquals("\u2026 99,960 more waiting jobs not shown: gq ps | less, or gq ps --json", fit.closing());
  }

  @Test
  void busyJobsThatFillTheScreenAreAllShownWithNoWaitingOne() {
    ScreenFit fit = ScreenFit.of(10, 80, 0, 12, 1, 0, "gq ps");
    assertEquals(0, fit.waiting());
    assertEquals("\u2026 1 more waiting job not shown: gq ps | less, or gq ps --json", fit.closing());
    // with no waiting job there is nothing to leave out: every live job is shown
    ScreenFit busy = ScreenFit.of(10, 80, 0, 12, 0, 5, "gq ps");
    assertFalse(busy.cut());
    assertEquals(0, busy.ended());
  }

  @Test
  void aClosingLineTheTerminalWrapsTakesTheRowsItWrapsTo() {
    String list = "gq ps --group a-long-group-name";
    ScreenFit wide = ScreenFit.of(20, 200, 0, 0, 1000, 0, list);
    ScreenFit narrow = ScreenFit.of(20, 40, 0, 0, 1000, 0, list);
    assertEquals(ScreenFit.lines(narrow.closing(), 40), 3, narrow.closing());
    assertEquals(17, wide.waiting());
    assertEquals(15, narrow.waiting());
  }
}

package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProgressHistoryTest {
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

  private static ProgressHistory seen(ProgressHistory h, long secondsAfterT0, long current) {
    return h.with(Reading.of(Source.LOG_PATTERN, current, 10_000), T0.plusSeconds(secondsAfterT0));
  }

  @Test
  void hasNoRateFromOneMoment() {
    assertTrue(Double.isNaN(seen(ProgressHistory.EMPTY, 0, 9_000).ratePerSecond()));
  }

  @Test
  void rateIsProgressBetweenTwoSeenMoments() {
    ProgressHistory h = seen(seen(ProgressHistory.EMPTY, 0, 9_000), 60, 9_010);
    assertEquals(10 / 60.0, h.ratePerSecond(), 1e-9);
  }

  @Test
  void keepsOnlyChangesSoAStandstillDoesNotMoveTheMoments() {
    ProgressHistory h = seen(seen(ProgressHistory.EMPTY, 0, 100), 60, 110);
    assertSame(h, seen(h, 90, 110));
  }

  @Test
  void countsFromTheOlderChangeOnceTwoChangesWereSeen() {
    // 100 was already there when first seen; 110 and 120 were seen as they happened
    ProgressHistory h = seen(seen(seen(ProgressHistory.EMPTY, 0, 100), 10, 110), 110, 120);
    assertEquals(10 / 100.0, h.ratePerSecond(), 1e-9);
  }

  @Test
  void startsOverWhenTheCountGoesBackOrTheSourceOrTotalChanges() {
    ProgressHistory h = seen(seen(ProgressHistory.EMPTY, 0, 500), 60, 600);
    assertEquals(1, seen(h, 120, 10).samples().size());
    assertEquals(1, h.with(Reading.of(Source.TQDM, 700, 10_000), T0.plusSeconds(120)).samples().size());
    assertEquals(1, h.with(Reading.of(Source.LOG_PATTERN, 700, 20_000), T0.plusSeconds(120)).samples().size());
  }

  @Test
  void keepsABoundedRecentWindow() {
    ProgressHistory h = ProgressHistory.EMPTY;
    for (int i = 0; i < 40; i++) h = seen(h, i * 10L, i * 10L);
    assertEquals(ProgressHistory.MAX_SAMPLES, h.samples().size());
    assertEquals(1.0, h.ratePerSecond(), 1e-9);
    h = seen(h, 3 * 3600, 500);
    assertEquals(2, h.samples().size());
  }
}

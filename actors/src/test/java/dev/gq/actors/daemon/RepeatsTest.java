package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class RepeatsTest {
  private static final long W = 60;
  private final Repeats repeats = new Repeats(W);

  @Test
  void aLineIsWrittenOnceAWindowAndTheNextWritingCountsThoseLeftOut() {
    assertEquals(new Repeats.Verdict(true, 0), repeats.seen("accept failed", 0));
    for (int t = 1; t <= 5; t++) assertEquals(new Repeats.Verdict(false, 0), repeats.seen("accept failed", t));
    assertEquals(new Repeats.Verdict(true, 5), repeats.seen("accept failed", W));
    assertEquals(new Repeats.Verdict(false, 0), repeats.seen("accept failed", W + 1));
    assertEquals(new Repeats.Verdict(true, 1), repeats.seen("accept failed", 10 * W));
  }

  @Test
  void differentLinesDoNotHoldEachOtherBack() {
    assertTrue(repeats.seen("a", 0).write());
    assertTrue(repeats.seen("b", 1).write());
    assertFalse(repeats.seen("a", 2).write());
  }

  @Test
  void onlyTheMostRecentLinesAreRemembered() {
    for (int i = 0; i <= Repeats.KEYS; i++) repeats.seen("line " + i, 0);
    assertTrue(repeats.seen("line 0", 1).write(), "the eldest was forgotten");
    assertFalse(repeats.seen("line " + Repeats.KEYS, 1).write());
  }
}

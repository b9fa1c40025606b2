package dev.gq.actors.notify;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CursorSavesTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void anEventWhoseMessagesWereDeliveredIsStoredAtOnce() {
    CursorSaves saves = new CursorSaves(SECOND, 0);
    saves.saved(0);
    assertTrue(saves.afterEvent(true, 1));
  }

  @Test
  void eventsThatCalledForNoMessageAreStoredOncePerSpacing() {
    CursorSaves saves = new CursorSaves(SECOND, 0);
    assertTrue(saves.afterEvent(false, 0), "the first one: nothing was stored yet");
    saves.saved(0);
    assertFalse(saves.pending());
    assertFalse(saves.afterEvent(false, SECOND / 2));
    assertTrue(saves.pending());
    assertFalse(saves.due(SECOND - 1));
    assertTrue(saves.due(SECOND), "the tick stores it once the spacing has passed");
    assertTrue(saves.afterEvent(false, SECOND));
    saves.saved(SECOND);
    assertFalse(saves.due(3 * SECOND), "nothing left to store");
  }
}

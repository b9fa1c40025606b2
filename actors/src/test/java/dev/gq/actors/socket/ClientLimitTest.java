package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ClientLimitTest {
  private static final String LIMITS = """
      Limit                     Soft Limit           Hard Limit           Units
      Max processes             63459                63459                processes
      Max open files            140                  1024                 files
      Max locked memory         8388608              8388608              bytes
      """;

  @Test
  void theSoftOpenFileLimitIsReadFromProc() {
    assertEquals(140, ClientLimit.openFileLimit(LIMITS));
    assertEquals(Long.MAX_VALUE, ClientLimit.openFileLimit("Max open files            unlimited            unlimited            files\n"));
    assertEquals(Long.MAX_VALUE, ClientLimit.openFileLimit(""));
  }

  @Test
  void theLimitLeavesTheDaemonItsReserveAndTwoDescriptorsPerClient() {
    // 140 allowed, 72 open at start: (140 - 72 - 32) / 2
    assertEquals(18, ClientLimit.of(0, 140, 72).max());
    assertEquals(ClientLimit.DEFAULT_MAX, ClientLimit.of(0, 20_000, 72).max());
    assertEquals(ClientLimit.DEFAULT_MAX, ClientLimit.of(0, Long.MAX_VALUE, 72).max());
    assertEquals(ClientLimit.MIN, ClientLimit.of(0, 80, 72).max(), "a tiny limit still serves a few");
  }

  @Test
  void aNumberTheUserSetIsKept() {
    assertEquals(500, ClientLimit.of(500, 140, 72).max());
  }

  @Test
  void theRefusalsAreOneLineNamingTheLimitAndTheSetting() {
    ClientLimit l = ClientLimit.of(0, 140, 72);
    assertEquals("the daemon is already serving 18 clients at once, its limit; try again when some have ended"
        + " (GQ_MAX_CLIENTS sets the limit; the daemon may open 140 files)", l.busy());
    assertFalse(l.outOfFiles().contains("\n"));
    assertTrue(l.outOfFiles().contains("140"), l.outOfFiles());
  }
}

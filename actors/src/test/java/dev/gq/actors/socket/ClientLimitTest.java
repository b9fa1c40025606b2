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
  void requestsAndStreamsShareWhatTheReserveLeavesAtTwoDescriptorsPerClient() {
    // 140 allowed, 72 open at start: (140 - 72 - 32) / 2 = 18 clients, half of them requests
    assertEquals(new ClientLimit(9, 9, 140), ClientLimit.of(0, 0, 140, 72));
    assertEquals(new ClientLimit(ClientLimit.DEFAULT_MAX, ClientLimit.DEFAULT_MAX_STREAMS, 20_000), ClientLimit.of(0, 0, 20_000, 72));
    assertEquals(ClientLimit.DEFAULT_MAX, ClientLimit.of(0, 0, Long.MAX_VALUE, 72).max());
    assertEquals(ClientLimit.DEFAULT_MAX_STREAMS, ClientLimit.of(0, 0, Long.MAX_VALUE, 72).maxStreams());
    assertEquals(new ClientLimit(ClientLimit.MIN, ClientLimit.MIN, 80), ClientLimit.of(0, 0, 80, 72), "a tiny limit still serves a few");
  }

  @Test
  void numbersTheUserSetAreKeptAndStreamsGetWhatIsLeft() {
    assertEquals(500, ClientLimit.of(500, 0, 140, 72).max());
    assertEquals(ClientLimit.MIN, ClientLimit.of(500, 0, 140, 72).maxStreams());
    assertEquals(new ClientLimit(10, 200, 20_000), ClientLimit.of(10, 200, 20_000, 72));
    assertEquals(ClientLimit.DEFAULT_MAX_STREAMS, ClientLimit.of(10, 0, 20_000, 72).maxStreams());
  }

  @Test
  void theRefusalsAreOneLineNamingTheLimitAndTheSetting() {
    ClientLimit l = ClientLimit.of(0, 0, 140, 72);
    assertEquals("the daemon is already serving 18 clients at once, its limit; try again when some have ended"
        + " (GQ_MAX_CLIENTS and GQ_MAX_STREAMS set the limit; the daemon may open 140 files)", l.busy());
    assertEquals("the daemon is already following 9 streams at once (logs -f, wait, events -f), its limit;"
        + " end some of them or try again later (GQ_MAX_STREAMS sets the limit; the daemon may open 140 files)", l.busyStreams());
    assertFalse(l.outOfFiles().contains("\n"));
    assertTrue(l.outOfFiles().contains("140"), l.outOfFiles());
  }
}

package dev.gq.host.proc;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcLocksTest {
  private static final String LOCKS = """
      1: FLOCK  ADVISORY  WRITE 3693 fe:00:2146745 0 EOF
      1: -> FLOCK  ADVISORY  WRITE 4000 fe:00:2146745 0 EOF
      2: POSIX  ADVISORY  READ 3701 fe:00:2146745 0 EOF
      3: OFDLCK ADVISORY  READ -1 fe:00:2146745 0 EOF
      4: FLOCK  ADVISORY  READ 3800 fe:00:2146746 0 EOF
      5: POSIX  ADVISORY  READ 3900 103:02:2146745 0 EOF
      6: LEASE  ACTIVE    READ 12 fe:00:2146745 0 EOF
      7: FLOCK  ADVISORY  WRITE 0 fe:00:2146745 0 EOF
      garbage
      """;

  @Test
  void theHoldersOfOneFileAreItsFlockTakerAndItsPosixLockersWaitersAndOtherFilesLeftOut() {
    ProcLocks.Holders h = ProcLocks.parse(LOCKS, 0xfe, 0x00, 2146745);
    assertEquals(List.of(3693L), h.flock(), "a waiter (->), another inode and a pid of another namespace (0) are no holders");
    assertEquals(List.of(3701L), h.posix(), "another device's lock on the same inode number is another file's");
    assertEquals(List.of(3900L), ProcLocks.parse(LOCKS, 0x103, 0x02, 2146745).posix());
  }

  @Test
  void aDevicesNumbersAreDecodedAsStatGivesThem() {
    assertEquals(0xfe, ProcLocks.major(65024));
    assertEquals(0, ProcLocks.minor(65024));
    long dev = (0x103L << 8) | 0x02 | (0x1000L << 32) | (0x300L << 12); // large major and minor numbers
    assertEquals(0x1103, ProcLocks.major(dev));
    assertEquals(0x302, ProcLocks.minor(dev));
  }
}

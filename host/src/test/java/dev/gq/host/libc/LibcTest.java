package dev.gq.host.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.LastErrorException;
import org.junit.jupiter.api.Test;

class LibcTest {

  @Test
  void getpidIsThisProcess() {
    assertEquals(ProcessHandle.current().pid(), Libc.getpid());
    assertTrue(Libc.getuid() >= 0);
  }

  @Test
  void killReportsErrnoForAMissingProcess() {
    Libc.kill(Libc.getpid(), 0);
    LastErrorException e = assertThrows(LastErrorException.class, () -> Libc.kill(Integer.MAX_VALUE, 0));
    assertEquals(Libc.ESRCH, e.getErrorCode());
  }

  @Test
  void pidfdProbesALiveProcessAndReportsAMissingOne() {
    int fd;
    try {
      fd = Libc.pidfdOpen(Libc.getpid());
    } catch (LastErrorException e) {
      assumeTrue(e.getErrorCode() != Libc.ENOSYS && e.getErrorCode() != Libc.EPERM, "no pidfd here");
      throw e;
    }
    assertTrue(fd >= 0);
    Libc.pidfdSendSignal(fd, 0);
    Libc.close(fd);
    LastErrorException e = assertThrows(LastErrorException.class, () -> Libc.pidfdOpen(Integer.MAX_VALUE));
    assertEquals(Libc.ESRCH, e.getErrorCode());
  }

  @Test
  void aThreadLowersItsOwnPriorityAndNoOtherThreads() throws Exception {
    int before = Libc.threadNice();
    int[] seen = new int[1];
    Thread t = new Thread(() -> {
      Libc.niceThisThread(Math.max(before, 10));
      seen[0] = Libc.threadNice();
    });
    t.start();
    t.join();
    assertEquals(Math.max(before, 10), seen[0], "the thread that asked is lowered");
    assertEquals(before, Libc.threadNice(), "the test's own thread is not");
  }
}

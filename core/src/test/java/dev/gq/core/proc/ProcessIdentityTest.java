package dev.gq.core.proc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ProcessIdentityTest {
  static final ProcessIdentity SHIM = new ProcessIdentity(4242, 4242, 4242, 987654, "boot-a");

  private static ProcInfo seen(long pid, long startTicks) {
    return new ProcInfo(pid, 1, pid, pid, startTicks, 'S', "gq-shim");
  }

  @Test
  void sameProcessOnTheSameBootMatches() {
    assertTrue(SHIM.matches(seen(4242, 987654), "boot-a"));
  }

  @Test
  void reusedPidWithAnotherStartTimeDoesNotMatch() {
    assertFalse(SHIM.matches(seen(4242, 987655), "boot-a"));
  }

  @Test
  void anotherPidDoesNotMatch() {
    assertFalse(SHIM.matches(seen(4243, 987654), "boot-a"));
  }

  @Test
  void sameNumbersAfterARebootDoNotMatch() {
    assertFalse(SHIM.matches(seen(4242, 987654), "boot-b"));
  }

  @Test
  void zombieAndDeadStatesAreZombies() {
    assertTrue(new ProcInfo(1, 0, 1, 1, 1, 'Z', "x").zombie());
    assertTrue(new ProcInfo(1, 0, 1, 1, 1, 'X', "x").zombie());
    assertFalse(new ProcInfo(1, 0, 1, 1, 1, 'R', "x").zombie());
  }
}

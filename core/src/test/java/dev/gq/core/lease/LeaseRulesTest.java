package dev.gq.core.lease;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class LeaseRulesTest {

  @Test
  void aFileThatIsNotALeaseIsFreeToWhoeverMayRemoveItAndBlockedNamingItsOwnerToOthers() {
    assertEquals(GpuLease.FREE, LeaseRules.notAFile("/l/GPU-a.lease", "a symbolic link", "bob", 0, 1002, 0), "root");
    assertEquals(GpuLease.FREE, LeaseRules.notAFile("/l/GPU-a.lease", "a symbolic link", "bob", 1002, 1002, 0), "its owner");
    assertEquals(GpuLease.FREE, LeaseRules.notAFile("/l/GPU-a.lease", "a symbolic link", "bob", 1001, 1002, 1001),
        "the directory's owner");
    assertEquals(GpuLease.State.BLOCKED, LeaseRules.notAFile("/l/GPU-a.lease", "a directory", "bob", 0, 1002, 0).state(),
        "no gq removes a directory, which may hold files");
    GpuLease l = LeaseRules.notAFile("/l/GPU-a.lease", "a symbolic link", "bob", 1001, 1002, 0);
    assertEquals(GpuLease.State.BLOCKED, l.state());
    assertEquals("its lease file /l/GPU-a.lease is a symbolic link of bob's, not a lease: no gq of this user can lease"
        + " the GPU until bob or root removes it", l.error());
  }

  @Test
  void aLeaseFileThisUserCannotOpenCountsAsHeldNamingItsOwner() {
    GpuLease l = LeaseRules.closed("/l/GPU-a.lease", "bob", 0100600);
    assertEquals(GpuLease.State.BLOCKED, l.state());
    assertEquals("its lease file /l/GPU-a.lease is bob's and closed to this user (mode 0600), so a job of bob's may"
        + " hold it: counted as held until bob or root removes it", l.error());
    assertTrue(LeaseRules.closed("/l/GPU-a.lease", "root", 0100600).error().endsWith("until root removes it"));
  }
}

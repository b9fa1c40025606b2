package dev.gq.core.lease;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
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

  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/gq");
  private static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1002, "bob", "/home/bob/gq");
  private static final long CARD = 81920;

  private static LeaseShare share(LeaseHolder.Instance who, long job, long mib) {
    return new LeaseShare(new LeaseHolder(who, job), mib);
  }

  @Test
  void aShareJoinsWhileTheDeclaredMemoryAndTheHeadroomFitTheCard() {
    List<LeaseShare> three = List.of(share(ALICE, 1, 20480), share(BOB, 2, 20480), share(ALICE, 3, 20480));
    assertNull(LeaseRules.shareRefusal("GPU-a", List.of(), CARD, 20480, 2048, 0, BOB));
    assertNull(LeaseRules.shareRefusal("GPU-a", three, CARD, 20480, 0, 0, BOB), "exactly full");
    assertEquals("GPU GPU-a cannot hold 20.0 GiB more plus 1 MiB of headroom: its shared jobs declare 60.0 GiB of its"
        + " 80.0 GiB (alice's job 1 (20.0 GiB), bob's job 2 (20.0 GiB), alice's job 3 (20.0 GiB))",
        LeaseRules.shareRefusal("GPU-a", three, CARD, 20480, 1, 0, BOB));
    assertEquals("GPU GPU-a has 24.0 GiB, less than the 20.0 GiB declared plus 8.0 GiB of headroom",
        LeaseRules.shareRefusal("GPU-a", List.of(), 24576, 20480, 8192, 0, BOB));
    assertNotNull(LeaseRules.shareRefusal("GPU-a", List.of(), CARD, Long.MAX_VALUE, Long.MAX_VALUE, 0, BOB), "no overflow");
    assertThrows(IllegalArgumentException.class, () -> LeaseRules.shareRefusal("GPU-a", List.of(), CARD, 0, 0, 0, BOB));
  }

  @Test
  void aCapCountsTheSharesOfEveryGqWhateverTheirMemory() {
    List<LeaseShare> two = List.of(share(ALICE, 1, 1024), share(BOB, 2, 1024));
    assertEquals("GPU GPU-a already has 2 shared jobs (alice's job 1 (1.0 GiB), bob's job 2 (1.0 GiB)), the most allowed"
        + " per GPU (2)", LeaseRules.shareRefusal("GPU-a", two, CARD, 1024, 0, 2, BOB));
    assertNull(LeaseRules.shareRefusal("GPU-a", two, CARD, 1024, 0, 3, BOB));
    assertNull(LeaseRules.shareRefusal("GPU-a", two, CARD, 1024, 0, 0, BOB), "0: no cap");
  }

  @Test
  void aShareWhoseLineCannotBeReadCountsAsTheWholeCard() {
    List<LeaseShare> odd = List.of(LeaseShare.unknown());
    assertEquals(CARD, LeaseRules.declaredMiB(odd, CARD));
    assertEquals(CARD + 1024, LeaseRules.declaredMiB(List.of(LeaseShare.unknown(), share(BOB, 2, 1024)), CARD));
    assertEquals("GPU GPU-a cannot hold 1 MiB more: its shared jobs declare all of its 80.0 GiB (a gq job whose share"
        + " does not say who it is)", LeaseRules.shareRefusal("GPU-a", odd, CARD, 1, 0, 0, ALICE));
    assertEquals(Long.MAX_VALUE, LeaseRules.declaredMiB(List.of(share(BOB, 1, Long.MAX_VALUE), share(BOB, 2, 5)), CARD));
  }

  @Test
  void aShareFileThisUserCannotOpenBlocksTheGpuNamingItsOwner() {
    GpuLease l = LeaseRules.closedShare("/l/GPU-a.share.3", "bob", 0100600);
    assertEquals(GpuLease.State.BLOCKED, l.state());
    assertEquals("its share file /l/GPU-a.share.3 is bob's and closed to this user (mode 0600), so a job of bob's may"
        + " hold it: counted as held until bob or root removes it", l.error());
  }
}

package dev.gq.core.lease;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class LeaseShareTest {

  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");
  private static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1002, "bob", "/home/bob/.local/share/gq");

  @Test
  void aShareLineReadsBackAsTheSameShare() {
    var s = new LeaseShare(new LeaseHolder(new LeaseHolder.Instance(1001, "alice", "/srv/gq data"), 12), 20480);
    assertEquals("gq-share mib=20480 uid=1001 user=alice job=12 data=/srv/gq data\n", s.line());
    LeaseShare back = LeaseShare.parse(s.line()).orElseThrow();
    assertEquals(s.holder().instance(), back.holder().instance());
    assertEquals(s.mib(), back.mib());
    assertEquals(LeaseHolder.Basis.LINE, back.holder().basis());
  }

  @Test
  void aTornForeignOrSizelessLineNamesNoShare() {
    String whole = new LeaseShare(new LeaseHolder(ALICE, 12), 20480).line();
    assertTrue(LeaseShare.parse(whole.substring(0, whole.length() - 1)).isEmpty(), "no newline: still being written");
    assertTrue(LeaseShare.parse("").isEmpty());
    assertTrue(LeaseShare.parse(null).isEmpty());
    assertTrue(LeaseShare.parse("gq-share mib=0 uid=1 user=a job=1 data=/d\n").isEmpty(), "a share declares memory");
    assertTrue(LeaseShare.parse("gq-share mib=x uid=1 user=a job=1 data=/d\n").isEmpty());
    assertTrue(LeaseShare.parse("gq-share mib=20\n").isEmpty());
    assertTrue(LeaseShare.parse(new LeaseHolder(ALICE, 12).line()).isEmpty(), "a lease line is no share");
    assertTrue(LeaseShare.parse(whole + whole).isEmpty(), "two lines");
  }

  @Test
  void aShareIsDescribedWithItsMemoryAndAnUnreadableOneSaysSo() {
    assertEquals("alice's job 12 (20.0 GiB)", new LeaseShare(new LeaseHolder(ALICE, 12), 20480).describe(BOB));
    assertFalse(LeaseShare.unknown().known());
    assertEquals("a gq job whose share does not say who it is", LeaseShare.unknown().describe(BOB));
    assertThrows(IllegalStateException.class, () -> LeaseShare.unknown().line());
  }

  @Test
  void aSharedLeaseListsItsSharesAndOldCallersStillBuildLeasesWithout() {
    var s = new LeaseShare(new LeaseHolder(ALICE, 12), 20480);
    GpuLease l = GpuLease.shared(java.util.List.of(s));
    assertEquals(GpuLease.State.SHARED, l.state());
    assertEquals(java.util.List.of(s), l.shares());
    assertEquals(java.util.List.of(), GpuLease.held(new LeaseHolder(ALICE, 1)).shares());
    assertEquals(java.util.List.of(), new GpuLease(GpuLease.State.FREE, null, null).shares());
    assertThrows(IllegalArgumentException.class, () -> GpuLease.shared(java.util.List.of()));
  }

  @Test
  void aShareCarriesItsPerGpuCapSoEveryGqHonoursIt() {
    var s = new LeaseShare(new LeaseHolder(ALICE, 12), 20480, 2);
    assertEquals("gq-share mib=20480 per-gpu=2 uid=1001 user=alice job=12 data=/home/alice/.local/share/gq\n", s.line());
    LeaseShare back = LeaseShare.parse(s.line()).orElseThrow();
    assertEquals(2, back.perGpu());
    assertEquals(20480, back.mib());
    assertEquals(12, back.holder().jobId());
    assertEquals(0, LeaseShare.parse(new LeaseShare(new LeaseHolder(ALICE, 12), 20480).line()).orElseThrow().perGpu());
    assertTrue(LeaseShare.parse("gq-share mib=20480 per-gpu=0 uid=1 user=a job=1 data=/d\n").isEmpty());
    assertTrue(LeaseShare.parse("gq-share mib=20480 per-gpu=x uid=1 user=a job=1 data=/d\n").isEmpty());
    assertEquals("alice's job 12 (20.0 GiB, at most 2 per GPU)", s.describe(BOB));
  }

  @Test
  void theSmallestCapOfTheNewcomerAndEveryLiveShareDecides() {
    var capped = new LeaseShare(new LeaseHolder(ALICE, 12), 1024, 2);
    var free = new LeaseShare(new LeaseHolder(BOB, 3), 1024);
    assertEquals(2, LeaseRules.cap(0, java.util.List.of(capped, free)));
    assertEquals(1, LeaseRules.cap(1, java.util.List.of(capped)));
    assertEquals(0, LeaseRules.cap(0, java.util.List.of(free)));
    String no = LeaseRules.shareRefusal("GPU-x", java.util.List.of(capped, free), 81920, 1024, 0, 0, BOB);
    assertNotNull(no, "a third job beside a --per-gpu 2 share of another gq is refused");
    assertTrue(no.contains("the most allowed per GPU (2, as one of them asked)"), no);
    assertNull(LeaseRules.shareRefusal("GPU-x", java.util.List.of(free), 81920, 1024, 0, 0, BOB));
  }
}

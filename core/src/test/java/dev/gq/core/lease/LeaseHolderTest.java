package dev.gq.core.lease;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class LeaseHolderTest {

  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");
  private static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1002, "bob", "/home/bob/.local/share/gq");

  @Test
  void aLineReadsBackAsTheSameHolderEvenWithBlanksInTheDataDirectory() {
    var h = new LeaseHolder(new LeaseHolder.Instance(1001, "alice", "/srv/gq data/a b"), 12);
    assertEquals("gq-lease uid=1001 user=alice job=12 data=/srv/gq data/a b\n", h.line());
    LeaseHolder back = LeaseHolder.parse(h.line()).orElseThrow();
    assertEquals(new LeaseHolder(h.instance(), h.jobId(), LeaseHolder.Basis.LINE, null), back);
    assertFalse(back.counted(), "a line alone is charged to nobody until the kernel names its uid");
  }

  @Test
  void aTornOrForeignLineNamesNoHolder() {
    String whole = new LeaseHolder(ALICE, 12).line();
    assertTrue(LeaseHolder.parse(whole.substring(0, whole.length() - 1)).isEmpty(), "no newline: still being written");
    assertTrue(LeaseHolder.parse("").isEmpty());
    assertTrue(LeaseHolder.parse(null).isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=x user=a job=1 data=/d\n").isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=1 user=a job=0 data=/d\n").isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=1 user=a job=1 data=/d\nmore\n").isEmpty());
    assertTrue(LeaseHolder.parse("something else\n").isEmpty());
  }

  @Test
  void aUserNameWithBlanksCannotBreakTheLine() {
    var h = new LeaseHolder(new LeaseHolder.Instance(5, "a b", "/d"), 3);
    assertEquals("uid-5", h.instance().user());
    assertEquals(h.instance(), LeaseHolder.parse(h.line()).orElseThrow().instance());
  }

  @Test
  void anInstanceIsItsUserAndItsDataDirectory() {
    var h = new LeaseHolder(ALICE, 12);
    assertTrue(h.of(ALICE));
    assertFalse(h.of(BOB));
    assertFalse(h.of(new LeaseHolder.Instance(1001, "alice", "/scratch/gq")), "the same user's other gq");
    assertFalse(h.of(null));
  }

  @Test
  void theDescriptionNamesTheUserOrTheOtherDataDirectory() {
    var h = new LeaseHolder(ALICE, 12);
    assertEquals("alice's job 12", h.describe(BOB));
    assertEquals("job 12 of the gq in /home/alice/.local/share/gq",
        h.describe(new LeaseHolder.Instance(1001, "alice", "/scratch/gq")));
  }
}

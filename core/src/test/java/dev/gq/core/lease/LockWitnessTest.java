package dev.gq.core.lease;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class LockWitnessTest {
  private static final LeaseHolder.Instance A = new LeaseHolder.Instance(1001, "prA", "/home/prA/.local/share/gq");
  private static final LockWitness.Person PR_A = new LockWitness.Person(1001, "prA");
  private static final LockWitness.Person PR_C = new LockWitness.Person(1003, "prC");
  private static final LeaseHolder LINE_A = LeaseHolder.parse(new LeaseHolder(A, 9).line()).orElseThrow();

  @Test
  void aLineTheKernelConfirmsIsChargedToItsUidUnderTheKernelsName() {
    var renamed = new LeaseHolder(new LeaseHolder.Instance(1001, "alias", A.dataDir()), 9).line();
    LeaseHolder h = LockWitness.attribute(LeaseHolder.parse(renamed).orElseThrow(), new LockWitness(List.of(PR_A), null));
    assertEquals(LeaseHolder.Basis.KERNEL, h.basis());
    assertTrue(h.counted());
    assertEquals(new LeaseHolder.Instance(1001, "prA", A.dataDir()), h.instance(), "the name is the kernel's, not the line's");
    assertEquals(9, h.jobId());
    assertTrue(h.of(A));
    assertEquals("prA's job 9", h.describe(null));
  }

  @Test
  void aForgedLineIsChargedToTheUserWhoseProcessHoldsTheLockNeverToTheUidItNames() {
    LeaseHolder h = LockWitness.attribute(LINE_A, new LockWitness(List.of(PR_C), null));
    assertEquals(1003, h.instance().uid());
    assertEquals("prC", h.instance().user());
    assertTrue(h.counted());
    assertFalse(h.of(A), "never taken for prA's own lease");
    assertEquals("prC's gq job (its line claims prA (uid 1001))", h.describe(A));
    // the taker of the flock names the user too when no shim marks the file
    assertEquals(1003, LockWitness.attribute(LINE_A, new LockWitness(List.of(), PR_C)).instance().uid());
  }

  @Test
  void markersOutrankTheFlocksTakerAndTheClaimedUidWinsOnlyWhenItIsAmongThem() {
    assertEquals(1001, LockWitness.attribute(LINE_A, new LockWitness(List.of(PR_C, PR_A), PR_C)).instance().uid());
    assertEquals(1003, LockWitness.attribute(LINE_A, new LockWitness(List.of(PR_C), PR_A)).instance().uid(),
        "a taker's pid, which may be stale, never outweighs a live marker");
  }

  @Test
  void aLineNoLiveProcessConfirmsIsShownButChargedToNobody() {
    LeaseHolder h = LockWitness.attribute(LINE_A, LockWitness.NONE);
    assertEquals(LeaseHolder.Basis.LINE, h.basis());
    assertFalse(h.counted());
    assertEquals("prA's job 9 (unconfirmed: no live process holds its lock)", h.describe(null));
    assertNull(LockWitness.attribute(null, LockWitness.NONE));
  }

  @Test
  void anUnreadableLineIsChargedToTheUserTheKernelNames() {
    LeaseHolder h = LockWitness.attribute(null, new LockWitness(List.of(PR_C), null));
    assertEquals(1003, h.instance().uid());
    assertFalse(h.namesJob());
    assertEquals("prC's gq job (its lease line is unreadable)", h.describe(A));
  }

  @Test
  void aLineWithAControlCharacterIsNoLine() {
    assertTrue(LeaseHolder.parse("gq-lease uid=1001 user=pr\u001b]0;PWN\u0007A job=9 data=/z\n").isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=1001 user=prA job=9 data=/z\u009b31m\n").isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=1001 user=prA job=9 data=/z\u007f\n").isEmpty());
    assertTrue(LeaseHolder.parse("gq-lease uid=1001 user=prA job=9 data=/\u202ez\n").isEmpty());
    assertEquals("uid-7", new LeaseHolder.Instance(7, "a\u0085b", "/d").user());
  }
}

package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.proc.ProcInfo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The demand file's text, which files count, and what they add up to. */
class DemandTest {
  static final Instant T = Instant.parse("2026-03-02T09:00:00Z");
  static final String BOOT = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  static final Demand BOB = new Demand("bob", 1001, 4242, 777, BOOT, 2, 3, 1, T, 1, T.plusSeconds(5));

  @Test
  void theTextRoundTripsAndHoldsCountsAndNamesOnly() {
    assertEquals(Optional.of(BOB), Demand.parse(BOB.text()).demand());
    assertEquals("""
        gq-demand 1
        user=bob
        uid=1001
        pid=4242
        start=777
        boot=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
        waiting=2
        wanted=3
        next=1
        oldest=2026-03-02T09:00:00Z
        held=1
        written=2026-03-02T09:00:05Z
        """, BOB.text());
    Demand none = new Demand("bob", 1001, 4242, 777, BOOT, 0, 0, 0, null, 2, T);
    assertEquals(Optional.of(none), Demand.parse(none.text()).demand());
  }

  @Test
  void aMalformedFileIsIgnoredWithAReason() {
    assertEquals("not a gq-demand 1 file", Demand.parse("hello\n").problem());
    assertEquals("not a gq-demand 1 file", Demand.parse(BOB.text().replace("\n", "\r\n")).problem());
    assertEquals("a malformed line", Demand.parse(BOB.text() + "held=9\n").problem());
    assertEquals("a missing or malformed value", Demand.parse(BOB.text().replace("wanted=3", "wanted=-3")).problem());
    assertEquals("a missing or malformed value", Demand.parse(BOB.text().replace("\nheld=1", "")).problem());
    assertEquals("unknown keys", Demand.parse(BOB.text() + "cmd=rm\n").problem());
    assertEquals("no valid user name", Demand.parse(BOB.text().replace("user=bob", "user=b b")).problem());
    assertEquals("inconsistent counts", Demand.parse(BOB.text().replace("next=1", "next=9")).problem());
    assertEquals("a missing or malformed value", Demand.parse(BOB.text().replace("held=1", "held=99999999999999999999")).problem());
  }

  @Test
  void aFileCountsOnlyWhileItsDaemonRunsAndOnlyForItsOwner() {
    ProcInfo daemon = new ProcInfo(4242, 1, 4242, 4242, 777, 'S', "java");
    assertNull(DemandRules.ignored(BOB, 1001, Optional.of(daemon), BOOT));
    assertEquals("it claims uid 1001 but belongs to uid 1002", DemandRules.ignored(BOB, 1002, Optional.of(daemon), BOOT));
    assertEquals("its daemon (pid 4242) has ended", DemandRules.ignored(BOB, 1001, Optional.empty(), BOOT));
    assertEquals("its daemon (pid 4242) has ended",
        DemandRules.ignored(BOB, 1001, Optional.of(new ProcInfo(4242, 1, 4242, 4242, 777, 'Z', "java")), BOOT));
    assertEquals("its daemon (pid 4242) has ended; the pid is another process's now",
        DemandRules.ignored(BOB, 1001, Optional.of(new ProcInfo(4242, 1, 4242, 4242, 9000, 'S', "sh")), BOOT));
    assertEquals("it was written before the machine last started", DemandRules.ignored(BOB, 1001, Optional.of(daemon), "other-boot"));
  }

  @Test
  void usersAreToldApartByUidNotByTheNameAFileStates() {
    Demand eveAsBob = new Demand("bob", 1002, 6000, 1, BOOT, 9, 9, 1, T, 0, T);
    Demand eveAsCarol = new Demand("carol", 1002, 6001, 1, BOOT, 9, 9, 1, T, 0, T);
    var users = DemandRules.perUser(List.of(BOB, eveAsBob, eveAsCarol));
    assertEquals(List.of("bob", "bob (uid 1002)"), List.copyOf(users.keySet()), "eve is one user, and not bob");
    assertEquals(18, users.get("bob (uid 1002)").wanted());
    assertEquals(3, users.get("bob").wanted());
    assertNull(DemandRules.misnamed("demand-1001-0123456789abcdef.demand", 1001));
    assertEquals("its name is uid 1001's but it belongs to uid 1002", DemandRules.misnamed("demand-1001-0123456789abcdef.demand", 1002));
  }

  @Test
  void oneUsersDaemonsAddUpAndFileNamesTellDaemonsApart() {
    Demand second = new Demand("bob", 1001, 5000, 9, BOOT, 1, 2, 2, T.minusSeconds(60), 2, T);
    UserLoad bob = DemandRules.perUser(List.of(BOB, second)).get("bob");
    assertEquals(new UserLoad("bob", 3, 5, 1, T.minusSeconds(60)), bob);
    String a = DemandRules.fileName(1001, "0123456789abcdef");
    assertEquals("demand-1001-0123456789abcdef.demand", a);
    assertTrue(DemandRules.isDemandFile(a), a);
    assertFalse(DemandRules.isDemandFile("GPU-1.lease"));
    assertFalse(DemandRules.isDemandFile(".tmp-" + a));
  }

  @Test
  void aNameIsTheUidAndSixteenRandomHexDigitsTheDaemonChose() {
    assertThrows(IllegalArgumentException.class, () -> DemandRules.fileName(1001, "/home/bob/.local/share/gq"));
    assertThrows(IllegalArgumentException.class, () -> DemandRules.fileName(1001, "0123456789ABCDEF"));
    assertThrows(IllegalArgumentException.class, () -> DemandRules.fileName(-1, "0123456789abcdef"));
    assertEquals(1001, DemandRules.uidOf("demand-1001-0123456789abcdef.demand"));
    assertEquals(1001, DemandRules.uidOf(".demand-1001-0123456789abcdef.demand.tmp-0a1b2c3d4e5f"));
    assertEquals(-1, DemandRules.uidOf("demand-1001-0123456789abcdef.demand.tmp-0a1b2c3d4e5f"));
    assertEquals(-1, DemandRules.uidOf("booking-b1.booking"));
  }

  @Test
  void aDaemonRemovesOnlyItsOwnUsersFilesOfEndedDaemonsAndOldTemporaryFiles() {
    String tmp = ".demand-1001-0123456789abcdef.demand.tmp-0a1b2c3d4e5f";
    Instant old = T.minus(DemandRules.TEMP_AGE).minusSeconds(1);
    assertTrue(DemandRules.leftover(tmp, 1001, 1001, old, T));
    assertFalse(DemandRules.leftover(tmp, 1001, 1001, T.minusSeconds(5), T), "another daemon of this user may be writing it");
    assertFalse(DemandRules.leftover(tmp, 1002, 1001, old, T), "another user's file");
    assertFalse(DemandRules.leftover(".demand-1002-0123456789abcdef.demand.tmp-0a1b2c3d4e5f", 1001, 1001, old, T), "another uid's name");
    assertFalse(DemandRules.leftover("demand-1001-0123456789abcdef.demand", 1001, 1001, old, T), "not a temporary file");
    String name = "demand-1001-0123456789abcdef.demand";
    assertTrue(DemandRules.ended(name, 1001, BOB, "its daemon (pid 4242) has ended", 1001));
    assertFalse(DemandRules.ended(name, 1001, BOB, null, 1001), "its daemon still runs");
    assertFalse(DemandRules.ended(name, 1002, BOB, "its daemon (pid 4242) has ended", 1001), "another user's file");
    assertFalse(DemandRules.ended(name, 1002, BOB, "its daemon (pid 4242) has ended", 1002), "it speaks for uid 1001");
  }
}

package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An admin's orders to every user's gq count by the file's owner alone, never by what the file says. */
class AdminOrderTest {
  static final Policy ADMINS = Policy.from(Map.of("admins", List.of("alice")), "/etc/gq/policy.toml");

  private static AdminOrder order(int owner, String name, String text) {
    return AdminOrder.parse(AdminOrder.fileName(owner, "0123456789abcdef"), owner, name, text).orElseThrow();
  }

  @Test
  void onlyRootAndThePolicysAdminsDrainOrCancelForEveryone() {
    AdminOrder byAlice = order(1000, "alice", AdminOrder.drainText("GPU-0", "maintenance"));
    AdminOrder byEve = order(1002, "eve", AdminOrder.drainText("GPU-1", "alice says so"));
    AdminOrder byRoot = order(0, "root", AdminOrder.cancelText("b0b1"));
    var s = AdminOrder.standing(List.of(byEve, byAlice, byRoot), ADMINS);
    assertEquals("drained for every user's gq by alice (uid 1000): maintenance", s.drains().get("GPU-0").drainLine());
    assertFalse(s.drains().containsKey("GPU-1"));
    assertEquals("its owner eve (uid 1002) is neither root nor one of the policy's admins (admins in /etc/gq/policy.toml)",
        s.notCounted().get(byEve.file()));
    assertEquals("cancelled by root (uid 0), an admin (" + byRoot.file() + ")", s.cancelled().get("b0b1"));
    assertTrue(AdminOrder.standing(List.of(byAlice), Policy.NONE).drains().isEmpty(), "no policy: only root is an admin");
  }

  @Test
  void aFileThatIsNotOneWholeOrderIsRefused() {
    assertTrue(AdminOrder.parse("f", 0, "root", "gq-admin 1\ndrain=GPU-0\ncancel=b0b1\n").isEmpty(), "two orders");
    assertTrue(AdminOrder.parse("f", 0, "root", "gq-admin 1\nuser=root\ncancel=b0b1\n").isEmpty(), "a stated author");
    assertTrue(AdminOrder.parse("f", 0, "root", "gq-admin 1\ncancel=../x\n").isEmpty());
    assertTrue(AdminOrder.isOrderFile(AdminOrder.fileName(1000, "0123456789abcdef")));
    assertFalse(AdminOrder.isOrderFile("admin-1000-x.admin"));
  }
}

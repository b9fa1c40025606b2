package dev.gq.core.notify;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingTest {
  private static Notice notice(NoticeKind kind, Set<NoticeKind> choice, Duration ran) {
    return new Notice(1, kind, 1L, null, "DONE", "t", "x", choice, ran);
  }

  @Test
  void aMinimumRunTimeKeepsShortEndsQuietButNotFailuresTheTargetAsksFor() {
    Set<NoticeKind> on = Set.of(NoticeKind.END, NoticeKind.FAILED);
    Duration min = Duration.ofMinutes(10);
    assertFalse(Routing.wants(notice(NoticeKind.END, null, Duration.ofMinutes(2)), on, min));
    assertTrue(Routing.wants(notice(NoticeKind.END, null, Duration.ofMinutes(10)), on, min));
    assertTrue(Routing.wants(notice(NoticeKind.FAILED, null, Duration.ofSeconds(3)), on, min));
    assertFalse(Routing.wants(notice(NoticeKind.FAILED, null, Duration.ofSeconds(3)), Set.of(NoticeKind.END), min));
    assertFalse(Routing.wants(notice(NoticeKind.END, null, null), on, min), "a job that never ran is short");
  }

  @Test
  void aJobsOwnChoiceReplacesTheTargetsAndIgnoresItsMinimum() {
    Duration min = Duration.ofHours(1);
    assertTrue(Routing.wants(notice(NoticeKind.END, NoticeKind.BARE, Duration.ofSeconds(1)), NoticeKind.DEFAULTS, min));
    assertFalse(Routing.wants(notice(NoticeKind.FAILED, Set.of(), Duration.ofHours(2)), NoticeKind.DEFAULTS, min));
    assertFalse(Routing.wants(notice(NoticeKind.END, null, Duration.ofHours(2)), NoticeKind.DEFAULTS, min));
  }

  @Test
  void queueAndGroupMessagesFollowTheTargetsList() {
    assertTrue(Routing.wants(notice(NoticeKind.DRAINED, null, null), NoticeKind.DEFAULTS, null));
    assertFalse(Routing.wants(notice(NoticeKind.DRAINED, null, null), Set.of(NoticeKind.FAILED), null));
    assertTrue(Routing.wants(notice(NoticeKind.GROUP, Set.of(NoticeKind.GROUP), null), Set.of(), null));
    assertTrue(Routing.wants(Notice.test("hi"), Set.of(), null));
  }

  @Test
  void eventWordsParseAndRefuseInOneLine() {
    assertEquals(Set.of(NoticeKind.FAILED, NoticeKind.GROUP), NoticeKind.parse("failed, group"));
    assertEquals(Set.of(), NoticeKind.parse("none"));
    assertEquals(8, NoticeKind.parse("all").size());
    assertEquals(Set.of(NoticeKind.OVER_MEMORY), NoticeKind.parse("over_memory"));
    var e = assertThrows(IllegalArgumentException.class, () -> NoticeKind.parse("failed,finish"));
    assertEquals("unknown notification event 'finish'; use a comma list of failed, end, group, held, drained, over_memory, unhealthy, idle, all or none",
        e.getMessage());
  }

  @Test
  void targetsAreCheckedAndAWebhookIsNeverShownWhole() {
    var hook = new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "https://hooks.slack.com/services/T0/B0/secret", null, null, null);
    assertNull(hook.problem());
    assertEquals("https://hooks.slack.com/…", hook.shown());
    assertFalse(hook.shown().contains("secret"));
    var bad = new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "ftp://x/secret", null, null, null);
    assertTrue(bad.problem().startsWith("invalid webhook URL ftp://x/…"), bad.problem());
    assertFalse(bad.problem().contains("secret"));
    assertNotNull(new NotifyTarget("c", NotifyTarget.Kind.COMMAND, null, java.util.List.of(), null, null).problem());
    assertNotNull(new NotifyTarget("m", NotifyTarget.Kind.MAIL, "not-an-address", null, null, null).problem());
    var port = new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "http://127.0.0.1:99999/x", null, null, null);
    assertTrue(port.problem().startsWith("invalid webhook URL http://127.0.0.1:99999/…: port 99999 is not 1 to 65535"), port.problem());
    assertNull(new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "http://127.0.0.1:65535/x", null, null, null).problem());
    assertNotNull(new NotifyTarget("m", NotifyTarget.Kind.MAIL, "x\u001b[31m@a.b", null, null, null).problem(),
        "an address with a control character is no address");
    var e = assertThrows(IllegalArgumentException.class, () -> NotifyTarget.Kind.of("slack"));
    assertTrue(e.getMessage().startsWith("unknown notification target 'slack'"));
  }
}

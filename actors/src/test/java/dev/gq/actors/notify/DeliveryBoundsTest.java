package dev.gq.actors.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NotifyTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A send's time limit bounds the whole exchange: a webhook that answers its headers at once and
 * then its body a byte a second is cut off at the limit (the test's own timeout only stops a
 * regression that would hang). Failures are said in words, never in a Java exception's text.
 */
class DeliveryBoundsTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aWebhookThatDribblesItsBodyIsStoppedAtTheTimeLimit() throws Exception {
    try (Dribbler slow = new Dribbler()) {
      var d = new Delivery(Map.of(), 1000, Duration.ofMillis(2000), dir);
      var cut = assertThrows(Delivery.Failed.class, () -> d.send(Notice.test("x"),
          new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, slow.url(), null, null, null)));
      assertEquals("webhook http://127.0.0.1:" + slow.port() + "/… did not finish its answer within 2s; stopped",
          cut.getMessage());
    }
  }

  @Test
  void aRefusedConnectionAndAMissingProgramAreSaidInWords() throws Exception {
    var d = new Delivery(Map.of("PATH", dir.toString()), 1000, Duration.ofSeconds(20), dir);
    var refused = assertThrows(Delivery.Failed.class, () -> d.send(Notice.test("x"),
        new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "http://127.0.0.1:9/hook/secret-token", null, null, null)));
    assertEquals("webhook http://127.0.0.1:9/… cannot be reached: connection refused by 127.0.0.1:9", refused.getMessage());
    NotifyTarget desktop = new NotifyTarget("d", NotifyTarget.Kind.DESKTOP, null, null, null, null);
    var noSend = assertThrows(Delivery.Failed.class, () -> d.send(Notice.test("x"), desktop));
    assertTrue(noSend.getMessage().startsWith("notify-send is not installed here"), noSend.getMessage());
    assertTrue(noSend.getMessage().contains("libnotify-bin"), noSend.getMessage());
    for (String m : List.of(refused.getMessage(), noSend.getMessage()))
      assertFalse(m.contains("Exception") || m.contains("error=") || m.contains("Cannot run program"), m);
    assertTrue(d.missing(desktop).contains("sudo apt install libnotify-bin"), d.missing(desktop));
    Path stub = Files.createFile(dir.resolve("notify-send"));
    stub.toFile().setExecutable(true);
    assertNull(d.missing(desktop), "installed: nothing to warn about");
  }

  @Test
  void aMissingSendmailIsNamedWithThePackagesThatProvideIt() {
    org.junit.jupiter.api.Assumptions.assumeFalse(Files.isExecutable(Path.of("/usr/sbin/sendmail"))
        || Files.isExecutable(Path.of("/usr/lib/sendmail")), "this machine has a sendmail");
    var d = new Delivery(Map.of("PATH", dir.toString()), 1000, Duration.ofSeconds(5), dir);
    String why = d.missing(new NotifyTarget("m", NotifyTarget.Kind.MAIL, "me@example.org", null, null, null));
    assertTrue(why.startsWith("sendmail is not installed here") && why.contains("msmtp-mta") && why.contains("postfix"), why);
  }

  @Test
  void aCursorThatCannotBeWrittenIsSaidInWords() throws Exception {
    Files.createDirectories(dir.resolve("notify-cursor.json.tmp").resolve("x"));
    var e = assertThrows(IOException.class, () -> new CursorFile(dir).write(new CursorFile.State(1,
        dev.gq.core.notify.NotifierMemory.EMPTY)));
    assertEquals("a directory is in the way (" + dir.resolve("notify-cursor.json.tmp") + ")", NoticeFailures.write(e));
  }

  @Test
  void aBrokenTargetFileIsSaidInWords() throws Exception {
    Files.writeString(dir.resolve("notify.json"), "{\"targets\": [\n  {oops\n");
    var n = new Notifications(dir, Map.of(), 1000, Duration.ofSeconds(1), Duration.ofMillis(5), Duration.ofSeconds(2),
        java.time.Clock.systemUTC());
    var e = assertThrows(dev.gq.api.ApiException.class, n::targets);
    assertEquals("cannot read the notification targets in " + dir.resolve("notify.json") + ": it is not valid JSON (line 2);"
        + " fix or delete that file", e.getMessage());
  }
}

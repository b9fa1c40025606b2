package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.actors.notify.Dribbler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets that are slow, missing or cannot be kept track of, with the real daemon: a webhook that
 * dribbles its answer is cut off at GQ_NOTIFY_TIMEOUT_MS (in {@code gq notify test} too) and holds
 * back no other target's messages, and {@code gq daemon status} shows it slow, then failing; a
 * notifier cursor that cannot be stored is shown there until it can be; a desktop or mail target
 * whose program is not installed is warned of at {@code add}.
 */
class NotifyTargetsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  private static Path recorder(Path dir, Path out) throws IOException {
    Files.createDirectories(dir);
    Path p = dir.resolve("record.sh");
    Files.writeString(p, "#!/bin/sh\nprintf '%s|%s\\n' \"$GQ_EVENT\" \"$GQ_JOB_ID\" >> " + out + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private static List<String> lines(Path f) {
    try {
      return Files.exists(f) ? Files.readAllLines(f) : List.of();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode target(Gqd g, String name) {
    for (JsonNode t : g.gq("notify", "list", "--json").json()) if (t.get("name").asText().equals(name)) return t;
    throw new AssertionError("no target " + name);
  }

  @Test
  void aWebhookThatDribblesItsAnswerIsCutOffAndHoldsBackNoOtherTarget() throws Exception {
    Path out = tmp.resolve("heard.txt");
    try (Dribbler slow = new Dribbler();
        Gqd g = Gqd.start(tmp, 0, Map.of("GQ_NOTIFY_TIMEOUT_MS", "3000", "GQ_NOTIFY_BACKOFF_MS", "20"))) {
      assertEquals(0, g.gq("notify", "add", "webhook", "--name", "wh", slow.url()).code());
      assertEquals(0, g.gq("notify", "add", "command", "--name", "cmd", "--on", "failed", recorder(tmp.resolve("bin"), out).toString()).code());
      String shown = "http://127.0.0.1:" + slow.port() + "/…";

      var test = g.gq("notify", "test", "wh");
      assertEquals(1, test.code(), test.toString());
      assertEquals("wh (" + shown + "): FAILED: webhook " + shown + " did not finish its answer within 3s; stopped\n", test.out());

      long failed = g.submit("-g", "0", "false");
      Gqd.await("the command target's message", T, () -> lines(out).contains("failed|" + failed));
      // the webhook is still on its first tries of the same message (five of 3 s each): it held nothing back
      assertEquals(0, target(g, "wh").get("failed").asInt(), lines(out).toString());
      Gqd.await("the webhook shown slow in gq daemon status", T,
          () -> g.gq("daemon", "status").out().contains("wh: slow: 1 message(s) not yet sent, the oldest for "));
      assertTrue(g.gq("daemon", "status").out().contains(", 1 slow"), g.gq("daemon", "status").out());
      Gqd.await("the webhook given up", T, () -> g.gq("daemon", "status").out().contains("wh: 1 failed (0 delivered)"));
      String status = g.gq("daemon", "status").out();
      assertTrue(status.contains("did not finish its answer within 3s; stopped"), status);
      assertFalse(status.contains("secret-token") || g.daemonLog().contains("secret-token"), status);
      assertTrue(g.daemonLog().lines().noneMatch(l -> l.contains("notification") && l.contains("Exception")), g.daemonLog());
    }
  }

  @Test
  void aCursorThatCannotBeStoredIsShownInDaemonStatusUntilItCanBe() throws Exception {
    Path out = tmp.resolve("heard.txt");
    try (Gqd g = Gqd.start(tmp, 0)) {
      assertEquals(0, g.gq("notify", "add", "command", "--on", "failed", recorder(tmp.resolve("bin"), out).toString()).code());
      Path cursor = g.data.resolve("notify-cursor.json");
      Path obstacle = g.data.resolve("notify-cursor.json.tmp");
      Files.createDirectories(obstacle.resolve("x")); // the atomic write's temporary file cannot be made, even by root
      long first = g.submit("-g", "0", "false");
      Gqd.await("its message", T, () -> lines(out).contains("failed|" + first));
      String line = "cannot store the notification cursor " + cursor + ": a directory is in the way (" + obstacle + ")";
      Gqd.await("the cursor's problem in gq daemon status", T, () -> g.gq("daemon", "status").out().contains(line));
      assertEquals(1, g.gq("daemon", "status").out().lines().filter(l -> l.contains("notification cursor")).count());

      Files.delete(obstacle.resolve("x"));
      Files.delete(obstacle);
      long second = g.submit("-g", "0", "false");
      Gqd.await("the next message", T, () -> lines(out).contains("failed|" + second));
      Gqd.await("the problem gone once the cursor is stored", T, () -> !g.gq("daemon", "status").out().contains("notification cursor"));
      // and a restart sends nothing again
      g.stopDaemon();
      g.startDaemon();
      long third = g.submit("-g", "0", "false");
      Gqd.await("the message after the restart", T, () -> lines(out).contains("failed|" + third));
      assertEquals(List.of("failed|" + first, "failed|" + second, "failed|" + third), lines(out));
    }
  }

  @Test
  void aDesktopOrMailTargetWithoutItsProgramIsWarnedOfAtAdd() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("empty-bin"));
    Assumptions.assumeFalse(Files.isExecutable(Path.of("/usr/sbin/sendmail")) || Files.isExecutable(Path.of("/usr/lib/sendmail")),
        "this machine has a sendmail");
    try (Gqd g = Gqd.start(tmp, 0, Map.of("PATH", bin + ":/bin:/usr/bin"))) {
      Assumptions.assumeFalse(Files.isExecutable(Path.of("/usr/bin/notify-send")) || Files.isExecutable(Path.of("/bin/notify-send")));
      var desktop = g.gq("notify", "add", "desktop");
      assertEquals(0, desktop.code(), desktop.toString());
      assertEquals("gq: warning: notify-send is not installed here, so desktop messages will fail; install it"
          + " (Debian/Ubuntu: sudo apt install libnotify-bin) or use another target\n", desktop.err());
      var mail = g.gq("notify", "add", "mail", "me@example.org");
      assertEquals(0, mail.code(), mail.toString());
      assertTrue(mail.err().startsWith("gq: warning: sendmail is not installed here") && mail.err().contains("msmtp-mta")
          && mail.err().lines().count() == 1, mail.err());
      var test = g.gq("notify", "test", "desktop");
      assertTrue(test.out().contains("FAILED: notify-send is not installed here (not found on the daemon's PATH)"), test.out());
      assertFalse(test.out().contains("Cannot run program") || test.out().contains("error="), test.out());
    }
  }
}

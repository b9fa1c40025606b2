package dev.gq.actors.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NotifyTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failing target is retried with back-off, then given up; from then on it gets one try per notice
 * until one gets through, so a dead target does not hold later notices for a whole back-off; one
 * that works again gets its retries back.
 */
class NotifyRetriesTest {
  @TempDir Path dir;

  @Test
  void aTargetGivenUpGetsOneTryPerNoticeUntilOneGetsThrough() throws Exception {
    Path tries = dir.resolve("tries"), ok = dir.resolve("ok");
    Path script = dir.resolve("target.sh");
    Files.writeString(script, "#!/bin/sh\necho x >> " + tries + "\n[ -e " + ok + " ]\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    new TargetFile(dir).write(List.of(new NotifyTarget("c", NotifyTarget.Kind.COMMAND, null, List.of(script.toString()), null, null)));
    var n = new Notifications(dir, Map.of("PATH", "/usr/bin:/bin"), 0, Duration.ofSeconds(10), Duration.ofMillis(5),
        Duration.ofSeconds(2), Clock.systemUTC());
    n.deliver(List.of(Notice.test("one"))).orElseThrow().get();
    assertEquals(Notifications.TRIES, lines(tries), "retried, then given up");
    n.deliver(List.of(Notice.test("two"))).orElseThrow().get();
    assertEquals(Notifications.TRIES + 1, lines(tries), "down: one try");
    Files.writeString(ok, "");
    n.deliver(List.of(Notice.test("three"))).orElseThrow().get();
    assertEquals(Notifications.TRIES + 2, lines(tries), "delivered at its one try");
    Files.delete(ok);
    n.deliver(List.of(Notice.test("four"))).orElseThrow().get();
    assertEquals(2 * Notifications.TRIES + 2, lines(tries), "up again: its retries are back");
  }

  @Test
  void messagesNoTargetWantsAreOnNoOnesWay() throws Exception {
    var n = new Notifications(dir, Map.of("PATH", "/usr/bin:/bin"), 0, Duration.ofSeconds(10), Duration.ofMillis(5),
        Duration.ofSeconds(2), Clock.systemUTC());
    assertTrue(n.deliver(List.of(Notice.test("one"))).isEmpty(), "no target is set: nothing to wait for");
    new TargetFile(dir).write(List.of());
    assertTrue(n.deliver(List.of(Notice.test("two"))).isEmpty(), "an empty list of targets: nothing to wait for");
    assertTrue(n.deliver(List.of()).isEmpty(), "no message");
  }

  private static long lines(Path p) throws Exception {
    return Files.readAllLines(p).size();
  }

  @Test
  void aTargetRemovedWhileItsMessagesWaitGetsNoneOfThem() throws Exception {
    Path heard = dir.resolve("heard"), started = dir.resolve("started"), go = dir.resolve("go");
    Path script = dir.resolve("slow.sh");
    Files.writeString(script, "#!/bin/sh\ntouch " + started + "\nwhile [ ! -e " + go + " ]; do sleep 0.05; done\n"
        + "echo \"$GQ_MESSAGE\" >> " + heard + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    new TargetFile(dir).write(List.of(new NotifyTarget("c", NotifyTarget.Kind.COMMAND, null, List.of(script.toString()), null, null)));
    var n = new Notifications(dir, Map.of("PATH", "/usr/bin:/bin"), 0, Duration.ofSeconds(30), Duration.ofMillis(5),
        Duration.ofSeconds(2), Clock.systemUTC());
    var first = n.deliver(List.of(Notice.test("one"))).orElseThrow();
    var second = n.deliver(List.of(Notice.test("two"))).orElseThrow();
    while (!Files.exists(started)) Thread.onSpinWait(); // the first is being sent
    new TargetFile(dir).write(List.of());
    Files.writeString(go, "");
    first.get();
    second.get();
    assertEquals(List.of("one"), Files.readAllLines(heard), "the second waited on the lane and its target was removed");
  }
}

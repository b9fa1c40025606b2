package dev.gq.actors.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NoticeKind;
import dev.gq.core.notify.NotifierMemory;
import dev.gq.core.notify.NotifyTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotifyFilesTest {
  @TempDir Path dir;

  @Test
  void targetsRoundTripInAPrivateFile() throws Exception {
    TargetFile f = new TargetFile(dir);
    assertEquals(List.of(), f.read());
    var targets = List.of(
        new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "https://h.example/secret", null, null, null),
        new NotifyTarget("c", NotifyTarget.Kind.COMMAND, null, List.of("/bin/echo", "a b"), Set.of(NoticeKind.END),
            Duration.ofMinutes(10)));
    f.write(targets);
    assertEquals(targets, f.read());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
    assertFalse(Files.exists(dir.resolve("notify.json.tmp")));
  }

  @Test
  void theCursorAndTheMemoryRoundTrip() throws Exception {
    CursorFile f = new CursorFile(dir);
    assertNull(f.read());
    var s = new CursorFile.State(42, new NotifierMemory(Map.of("sw", 20), true, Map.of("DONE", 3)));
    f.write(s);
    assertEquals(s, f.read());
    var sweep = new CursorFile.State(43, new NotifierMemory(Map.of(), false, Map.of("FAILED", 2), "sw", Duration.ofSeconds(9),
        Map.of("sw", 7L), Set.of("ff")));
    f.write(sweep);
    assertEquals(sweep, f.read());
  }

  @Test
  void theDesktopReachesTheSessionBusOfADetachedDaemon() throws Exception {
    Files.createDirectories(dir.resolve("1000"));
    Files.writeString(dir.resolve("1000/bus"), "");
    var detached = new Delivery(Map.of("PATH", "/bin"), 1000, Duration.ofSeconds(1), dir).desktopEnv();
    assertEquals("unix:path=" + dir.resolve("1000/bus"), detached.get("DBUS_SESSION_BUS_ADDRESS"));
    var inSession = new Delivery(Map.of("DBUS_SESSION_BUS_ADDRESS", "unix:abstract=x"), 1000, Duration.ofSeconds(1), dir)
        .desktopEnv();
    assertEquals("unix:abstract=x", inSession.get("DBUS_SESSION_BUS_ADDRESS"));
    assertNull(new Delivery(Map.of(), 1001, Duration.ofSeconds(1), dir).desktopEnv().get("DBUS_SESSION_BUS_ADDRESS"));
  }

  @Test
  void aHungCommandIsStoppedAtItsTimeLimitAndAFailureNeverNamesAWebhooksUrl() {
    var d = new Delivery(Map.of("PATH", "/usr/bin:/bin"), 1000, Duration.ofMillis(300), dir);
    var hung = assertThrows(Delivery.Failed.class,
        () -> d.send(Notice.test("x"), new NotifyTarget("c", NotifyTarget.Kind.COMMAND, null, List.of("sleep", "30"), null, null)));
    assertTrue(hung.getMessage().contains("did not finish within 300ms"), hung.getMessage());
    var refused = assertThrows(Delivery.Failed.class, () -> d.send(Notice.test("x"),
        new NotifyTarget("w", NotifyTarget.Kind.WEBHOOK, "http://127.0.0.1:9/hook/secret-token", null, null, null)));
    assertTrue(refused.getMessage().startsWith("webhook http://127.0.0.1:9/… "), refused.getMessage());
    assertFalse(refused.getMessage().contains("secret-token"));
  }
}

package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's small parts: terminal lines, the log tail, connect errors. */
class PiecesTest {
  @TempDir Path dir;

  @Test
  void readsOneTerminalLineAndNothingMore() throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream("oui é\r\nnext\nlast".getBytes(StandardCharsets.UTF_8));
    assertEquals("oui é", Terminal.readLine(in));
    assertEquals("next", Terminal.readLine(in));
    assertEquals("last", Terminal.readLine(in));
    assertNull(Terminal.readLine(in));
    assertEquals("", Terminal.readLine(new ByteArrayInputStream("\n".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void tailGivesTheLastLinesWrittenSinceAnOffset() throws IOException {
    Path log = dir.resolve("log");
    Files.writeString(log, "old\n");
    long from = Files.size(log);
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 15; i++) sb.append("line ").append(i).append('\n');
    Files.writeString(log, "old\n" + sb);
    List<String> tail = DaemonLauncher.tail(log, 10, from);
    assertEquals(10, tail.size());
    assertEquals("line 6", tail.get(0));
    assertEquals("line 15", tail.get(9));
    assertEquals(16, DaemonLauncher.tail(log, 100, 0).size());
    assertEquals(List.of("line 14", "line 15"), DaemonLauncher.tail(log, 2, 0));
    assertEquals(List.of(), DaemonLauncher.tail(log, 10, Files.size(log)));
  }

  @Test
  void tailReadsEverythingWhenTheLogShrankAndKeepsALastLineWithoutNewline() throws IOException {
    Path log = dir.resolve("log");
    Files.writeString(log, "a\nb");
    assertEquals(List.of("a", "b"), DaemonLauncher.tail(log, 10, 1000));
    assertEquals(List.of("(cannot read it: " + dir.resolve("none") + " (No such file or directory))"),
        DaemonLauncher.tail(dir.resolve("none"), 10, 0));
  }

  @Test
  void connectErrorsAreSortedIntoNotRunningAndFailures() throws ClientFailure {
    Connector c = new Connector(dir.resolve("gq.sock"));
    assertNull(c.connect(), "no socket file");
    assertNull(c.classify(new ConnectException("Connection refused")));
    assertNull(c.classify(new SocketException("No such file or directory")));
    ClientFailure denied = assertThrows(ClientFailure.class, () -> c.classify(new BindException("Permission denied")));
    assertEquals("cannot connect to " + dir.resolve("gq.sock")
        + ": permission denied (is it another user's daemon? set GQ_RUNTIME_DIR)", denied.getMessage());
    ClientFailure other = assertThrows(ClientFailure.class, () -> c.classify(new SocketException("Protocol wrong type")));
    assertEquals(1, other.code());
  }

  @Test
  void aStaleSocketFileMeansNotRunning() throws Exception {
    Path sock = dir.resolve("gq.sock");
    new FakeDaemon(sock, (req, in, out) -> { }).close();
    Files.createFile(sock);
    assertNull(new Connector(sock).connect());
  }

  @Test
  void seesALockHeldOnTheLockFile() throws IOException {
    Path lockFile = dir.resolve("gq.lock");
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      assertFalse(LockProbe.held(lockFile));
      try (FileLock lock = ch.lock()) {
        assertTrue(LockProbe.held(lockFile));
      }
      assertFalse(LockProbe.held(lockFile));
    }
    assertFalse(LockProbe.held(dir.resolve("missing")));
  }

  @Test
  void readsLockLinesByInode() throws IOException {
    Path lockFile = Files.createFile(dir.resolve("gq.lock"));
    Object ino = Files.getAttribute(lockFile, "unix:ino");
    Path locks = dir.resolve("locks");
    Files.writeString(locks, "1: POSIX  ADVISORY  WRITE 4242 08:01:" + ino + " 0 EOF\n");
    assertTrue(LockProbe.held(lockFile, locks));
    assertEquals(4242, LockProbe.holder(lockFile, locks));
    Files.writeString(locks, "1: POSIX  ADVISORY  WRITE 4242 08:01:1" + ino + " 0 EOF\n");
    assertFalse(LockProbe.held(lockFile, locks));
    Files.writeString(locks, "1: POSIX  ADVISORY  WRITE 4242 08:01:1 0 EOF\n1: -> POSIX  ADVISORY  WRITE 77 08:01:" + ino
        + " 0 EOF\n2: FLOCK  ADVISORY  WRITE 515 08:01:" + ino + " 0 EOF\n");
    assertEquals(515, LockProbe.holder(lockFile, locks), "the holder, not a process waiting for the lock");
  }

  @Test
  void theLongestAllowedSocketPathIsAccepted() throws ClientFailure {
    String base = dir.toString() + "/";
    String name = "s".repeat(Connector.MAX_PATH_BYTES - base.length());
    new Connector(Path.of(base + name));
    assertThrows(ClientFailure.class, () -> new Connector(Path.of(base + name + "s")));
  }
}

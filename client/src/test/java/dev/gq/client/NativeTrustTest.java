package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.protocol.Frame;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native client sends nothing (its request carries the environment) unless the data and
 * runtime directories are the user's own and no one else can write them, the socket file is the
 * user's, and the process behind it runs as the user. Another user is uid 65534 (nobody); the
 * tests that must give files to it need root and are skipped otherwise.
 */
@Timeout(60)
class NativeTrustTest {
  static final int OTHER = 65534;
  @TempDir Path dir;
  NativeGq gq;

  @BeforeEach
  void setUp() throws Exception {
    gq = new NativeGq(dir);
  }

  private static FakeDaemon answering(Path socket) throws Exception {
    return new FakeDaemon(socket, (req, in, out) -> {
      out.send(Frame.out("served\n"));
      out.send(Frame.exit(0));
    });
  }

  @Test
  void aDataDirectoryOthersCanWriteIsRefusedBeforeConnecting() throws Exception {
    Files.createDirectories(gq.data);
    Files.setPosixFilePermissions(gq.data, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (FakeDaemon d = answering(gq.socket())) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals(0, d.requests.size(), "the environment reached a listener behind a directory others can write");
      assertEquals("gq: the data directory " + gq.data + " can be written by other users (mode 0777); run 'chmod go-w "
          + gq.data + "', or set GQ_DATA_DIR to a private directory\n", r.err());
    }
  }

  @Test
  void aRuntimeDirectoryOthersCanWriteIsRefusedBeforeConnecting() throws Exception {
    Files.createDirectories(gq.data);
    Files.setPosixFilePermissions(gq.data, PosixFilePermissions.fromString("rwx------"));
    try (FakeDaemon d = answering(gq.socket())) {
      Files.setPosixFilePermissions(gq.runtime, PosixFilePermissions.fromString("rwxrwx---"));
      NativeGq.Result r = gq.run("submit", "--", "python", "train.py");
      assertEquals(1, r.code(), r.err());
      assertEquals(0, d.requests.size(), "the environment reached a listener in a directory others can write");
      assertEquals("gq: the runtime directory " + gq.runtime + " can be written by other users (mode 0770); run"
          + " 'chmod go-w " + gq.runtime + "', or set GQ_RUNTIME_DIR to a private directory\n", r.err());
    }
  }

  @Test
  void aRuntimeDirectoryOfAnotherUserIsRefusedBeforeConnecting() throws Exception {
    assumeRoot();
    try (FakeDaemon d = answering(gq.socket())) {
      chown(gq.runtime, OTHER);
      NativeGq.Result r = gq.run("submit", "--", "python", "train.py");
      assertEquals(1, r.code(), r.err());
      assertEquals(0, d.requests.size(), "the environment reached a listener in another user's directory");
      assertEquals("gq: the runtime directory " + gq.runtime + " belongs to uid " + OTHER + ", not to you (uid 0), and"
          + " its owner could read what gq keeps there; set GQ_RUNTIME_DIR to a directory of your own\n", r.err());
    }
  }

  @Test
  void aSocketFileOfAnotherUserIsRefusedBeforeAnythingIsSent() throws Exception {
    assumeRoot();
    // the listener runs as the user (root): only the socket file's owner is wrong
    try (FakeDaemon d = answering(gq.socket())) {
      chown(gq.socket(), OTHER);
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals(0, d.requests.size(), "the environment reached a socket file of another user");
      assertEquals("gq: the socket " + gq.socket() + " belongs to uid " + OTHER + ", not to you (uid 0); nothing was"
          + " sent; remove it, or set GQ_RUNTIME_DIR to a directory of your own\n", r.err());
    }
  }

  @Test
  void anotherUsersListenerIsRefusedBeforeAnythingIsSent() throws Exception {
    assumeTrue(isRoot() && new File("/usr/bin/setpriv").canExecute(),
        "needs root and setpriv to run the client as another user");
    // the client runs as nobody in directories of its own; the listener is root's
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(gq.runtime);
    Files.createDirectories(gq.data);
    for (Path p : List.of(gq.runtime, gq.data, gq.work)) chown(p, OTHER);
    try (var listener = new NativeGq.RawDaemon(gq.socket(), null)) {
      Files.setPosixFilePermissions(gq.socket(), PosixFilePermissions.fromString("rwxrwxrwx"));
      chown(gq.socket(), OTHER);
      gq.wrapper = List.of("/usr/bin/setpriv", "--reuid=" + OTHER, "--regid=" + OTHER, "--clear-groups");
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the socket " + gq.socket() + " is served by uid 0, not by you (uid " + OTHER + "); nothing"
          + " was sent; remove it, or set GQ_RUNTIME_DIR to a directory of your own\n", r.err());
      assertEquals(0, listener.awaitReceived().length, "nothing was sent");
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void assumeRoot() {
    assumeTrue(isRoot(), "needs root to give files to another user");
  }

  private static void chown(Path p, int uid) throws Exception {
    assertEquals(0, new ProcessBuilder("chown", uid + ":" + uid, p.toString()).inheritIO().start().waitFor());
  }
}

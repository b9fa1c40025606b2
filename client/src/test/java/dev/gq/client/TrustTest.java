package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.PrivateDirectory;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client sends nothing (its request carries the environment) unless the runtime and data
 * directories are the user's own and the process behind the socket runs as the user.
 * Another user is uid 65534 (nobody); the tests that need to be root to act as it skip otherwise.
 */
@Timeout(30)
class TrustTest {
  static final int OTHER = 65534;
  @TempDir Path dir;
  Harness h;
  Path otherDir;
  Process listener;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
  }

  @AfterEach
  void tearDown() throws IOException {
    if (listener != null) listener.destroyForcibly();
    if (otherDir != null) {
      try (Stream<Path> s = Files.walk(otherDir)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
  }

  @Test
  void aRuntimeDirectoryOfAnotherUserIsRefusedBeforeConnecting() throws Exception {
    assumeRoot();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      chown(h.runtime, OTHER);
      assertEquals(1, h.run("submit", "--", "python", "train.py"));
      assertEquals(0, d.requests.size(), "the environment reached a listener in another user's directory");
    }
    assertEquals("gq: the runtime directory " + h.runtime + " belongs to uid " + OTHER + ", not to you (uid 0),"
        + " and its owner could read what gq keeps there; set GQ_RUNTIME_DIR to a directory of your own\n", h.err);
  }

  @Test
  void aDataDirectoryOthersCanWriteIsRefused() throws Exception {
    Files.createDirectories(h.data);
    Files.setPosixFilePermissions(h.data, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      assertEquals(1, h.run("ps"));
      assertEquals(0, d.requests.size());
    }
    assertTrue(h.err.startsWith("gq: the data directory " + h.data + " can be written by other users (mode 0777);"), h.err);
  }

  @Test
  void aSocketFileOfAnotherUserIsRefusedOnBothSocketPaths() throws Exception {
    assumeRoot();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      chown(h.socket(), OTHER);
      for (boolean useNative : new boolean[] {true, false}) {
        ClientFailure f = assertThrows(ClientFailure.class, () -> new Connector(h.socket(), useNative).connect());
        assertTrue(f.getMessage().startsWith("the socket " + h.socket() + " belongs to uid " + OTHER), f.getMessage());
      }
      assertEquals(1, h.run("ps"));
      assertEquals(0, d.requests.size());
    }
  }

  @Test
  void aConnectionWhoseSocketFileIsGoneByTheCheckIsNoDaemonOnBothSocketPaths() throws Exception {
    // a stopping daemon removes its socket just before it closes; a probe it accepted meanwhile
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      for (boolean useNative : new boolean[] {true, false}) {
        Files.createDirectories(h.socket().getParent());
        Connector c = new Connector(h.socket(), useNative);
        java.nio.channels.ByteChannel ch = useNative
            ? NativeSocket.connect(h.socket().toString())
            : java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of(h.socket()));
        Path moved = h.socket().resolveSibling("moved.sock");
        Files.move(h.socket(), moved);
        assertEquals(null, c.checked(ch), "no daemon, not a failure");
        assertTrue(!ch.isOpen(), "the connection is closed");
        Files.move(moved, h.socket());
      }
      assertEquals(0, d.requests.size(), "nothing was sent");
    }
  }

  @Test
  void aListenerOfAnotherUserGetsNothingOnBothSocketPaths() throws Exception {
    assumeRoot();
    assumeTrue(new File("/usr/bin/setpriv").canExecute() && new File("/usr/bin/python3").canExecute(),
        "needs /usr/bin/setpriv and /usr/bin/python3 to run a listener as another user");
    BufferedReader said = listenAsOtherUser();
    Files.createDirectories(h.runtime);
    // the socket of another user's listener, moved into the user's own directory and given to the user
    Files.move(otherDir.resolve("gq.sock"), h.socket());
    chown(h.socket(), 0);
    ClientFailure nat = assertThrows(ClientFailure.class, () -> new Connector(h.socket(), true).connect());
    assertEquals("the socket " + h.socket() + " is served by uid " + OTHER + ", not by you (uid 0); nothing was sent;"
        + " remove it, or set GQ_RUNTIME_DIR to a directory of your own", nat.getMessage());
    assertEquals("got 0", said.readLine(), "the listener received bytes");
    ClientFailure jdk = assertThrows(ClientFailure.class, () -> new Connector(h.socket(), false).connect());
    assertTrue(jdk.getMessage().contains(" is served by user nobody, not by you (uid 0); nothing was sent;"), jdk.getMessage());
    assertEquals("got 0", said.readLine());
    h.env.put("HF_TOKEN", "secret");
    assertEquals(1, h.run("submit", "--", "python", "train.py"));
    assertEquals("got 0", said.readLine());
    assertTrue(h.err.contains("is served by uid " + OTHER), h.err);
  }

  private BufferedReader listenAsOtherUser() throws Exception {
    otherDir = Files.createTempDirectory(Path.of("/tmp"), "gq-other-");
    chown(otherDir, OTHER);
    String script = "import socket,sys\n"
        + "s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); print('ready',flush=True)\n"
        + "while True:\n"
        + "  c,_=s.accept(); n=0\n"
        + "  while True:\n"
        + "    d=c.recv(65536)\n"
        + "    if not d: break\n"
        + "    n+=len(d)\n"
        + "  print('got',n,flush=True); c.close()\n";
    listener = new ProcessBuilder("/usr/bin/setpriv", "--reuid=" + OTHER, "--regid=" + OTHER, "--clear-groups",
        "/usr/bin/python3", "-c", script, otherDir.resolve("gq.sock").toString()).redirectErrorStream(true).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(listener.getInputStream(), StandardCharsets.UTF_8));
    assertEquals("ready", r.readLine());
    return r;
  }

  private static void assumeRoot() {
    assumeTrue(PrivateDirectory.myUid() == 0, "needs root to give files to another user");
  }

  private static void chown(Path p, int uid) throws Exception {
    Process c = new ProcessBuilder("chown", uid + ":" + uid, p.toString()).inheritIO().start();
    assertEquals(0, c.waitFor());
  }
}

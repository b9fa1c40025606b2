package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.protocol.LineReader;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets one clear line, loses nothing, and the daemon keeps serving. */
class BadInputEndToEndTest {
  @TempDir static Path tmp;
  static Gqd g;

  @BeforeAll
  static void start() throws Exception {
    g = Gqd.start(tmp.resolve("main"), 2);
  }

  @AfterAll
  static void stop() throws Exception {
    g.close();
  }

  private static void oneLine(Gqd.Result r, int code, String fragment) {
    assertEquals(code, r.code(), r.toString());
    assertTrue(r.err().contains(fragment), r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
  }

  @Test
  void unknownJobIdIsOneLine() {
    oneLine(g.gq("show", "424242"), 1, "424242");
  }

  @Test
  void emptyCommandIsRefused() {
    assertNotEquals(0, g.gq("-g", "1").code());
  }

  @Test
  void moreGpusThanPresentIsRefusedNamingTheCount() {
    oneLine(g.gq("-g", "3", "true"), 1, "2");
  }

  @Test
  void negativeGpuCountIsRefused() {
    assertNotEquals(0, g.gq("-g", "-1", "true").code());
  }

  @Test
  void nulByteInAnArgumentIsRefused() {
    assertNotEquals(0, g.gq("-g", "0", "echo", "a\0b").code());
  }

  @Test
  void vanishedWorkingDirectoryIsRefused() throws IOException {
    Path gone = tmp.resolve("gone");
    Files.createDirectories(gone);
    Files.delete(gone);
    Gqd.Result r = g.gqIn(gone, "-g", "0", "true");
    assertEquals(1, r.code(), r.toString());
    assertTrue(r.err().contains(gone.toString()), r.err());
  }

  @Test
  void missingScriptAndMalformedDirectiveAreOneLine() throws IOException {
    oneLine(g.gq("submit", "nope.sh"), 1, "nope.sh");
    Path s = g.work.resolve("bad.sh");
    Files.writeString(s, "#!/bin/bash\n#gq --gpus=1\n#gq --priority=high\necho hi\n");
    Gqd.Result r = g.gq("submit", s.toString());
    assertNotEquals(0, r.code());
    assertTrue(r.err().contains("line 3"), r.err());
  }

  @Test
  void garbageTruncatedAndHalfClosedConnectionsLeaveTheDaemonServing() throws Exception {
    assertTrue(raw("this is not json\n").contains("err"));
    assertTrue(raw("{\"protocol\":1,\"type\":\"run\",\"argv\":[\n").contains("err"));
    try (SocketChannel c = connect()) {
      c.write(ByteBuffer.wrap("{\"protocol\":1".getBytes(StandardCharsets.UTF_8)));
      c.shutdownOutput();
    }
    try (SocketChannel c = connect()) {
      c.close();
    }
    assertEquals(0, g.gq("ps").code());
  }

  @Test
  void oversizedRequestIsRefusedAndTheDaemonKeepsServing() throws Exception {
    try (SocketChannel c = connect()) {
      byte[] chunk = new byte[1 << 20];
      java.util.Arrays.fill(chunk, (byte) 'x');
      try {
        for (int i = 0; i < 20; i++) c.write(ByteBuffer.wrap(chunk));
      } catch (IOException expected) {
        // the daemon may close the connection as soon as the limit is passed
      }
    }
    assertEquals(0, g.gq("ps").code());
  }

  @Test
  void secondDaemonIsRefusedWithOneLine() throws Exception {
    Process second = g.daemonProcess();
    assertTrue(second.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, second.exitValue());
    assertTrue(g.daemonLog().contains("another gq daemon is already running"), g.daemonLog());
    assertEquals(0, g.gq("ps").code());
  }

  @Test
  void twoDaemonsStartedAtTheSameMomentLeaveExactlyOneServing() throws Exception {
    try (Gqd other = new Gqd(tmp.resolve("twins"), 1, java.util.Map.of())) {
      Process a = other.daemonProcess(), b = other.daemonProcess();
      Gqd.await("one of them to answer", java.time.Duration.ofSeconds(90), other::ping);
      Gqd.await("the other to give up", java.time.Duration.ofSeconds(60), () -> !a.isAlive() || !b.isAlive());
      assertEquals(1, (a.isAlive() ? 1 : 0) + (b.isAlive() ? 1 : 0), "exactly one daemon runs");
      Process loser = a.isAlive() ? b : a;
      assertEquals(1, loser.exitValue());
      assertTrue(other.daemonLog().contains("another gq daemon is already running"), other.daemonLog());
      assertEquals(0, other.gq("ps").code());
      a.destroyForcibly().waitFor();
      b.destroyForcibly().waitFor();
    }
  }

  @Test
  void databaseFromANewerGqIsRefused() throws Exception {
    try (Gqd other = new Gqd(tmp.resolve("newer"), 1, java.util.Map.of())) {
      Files.createDirectories(other.data);
      try (var c = DriverManager.getConnection("jdbc:sqlite:" + other.data.resolve("gq.db"));
          var st = c.createStatement()) {
        st.execute("CREATE TABLE gq_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        st.execute("INSERT INTO gq_meta VALUES ('schema_version', '99')");
      }
      Process p = other.daemonProcess();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(1, p.exitValue());
      assertTrue(other.daemonLog().contains("newer gq"), other.daemonLog());
    }
  }

  @Test
  void corruptDatabaseIsRefusedAndLeftAsItWas() throws Exception {
    try (Gqd other = new Gqd(tmp.resolve("corrupt"), 1, java.util.Map.of())) {
      Files.createDirectories(other.data);
      Path db = other.data.resolve("gq.db");
      byte[] junk = "this is not a database at all, just some bytes....".repeat(100).getBytes(StandardCharsets.UTF_8);
      Files.write(db, junk);
      Process p = other.daemonProcess();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(1, p.exitValue());
      assertTrue(other.daemonLog().contains("damaged"), other.daemonLog());
      assertArrayEquals(junk, Files.readAllBytes(db), "the damaged file is left untouched");
    }
  }

  private static SocketChannel connect() throws IOException {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
    return c;
  }

  private static String raw(String text) throws IOException {
    try (SocketChannel c = connect()) {
      c.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
      c.shutdownOutput();
      StringBuilder sb = new StringBuilder();
      LineReader r = new LineReader(c);
      for (String l; (l = r.readLine()) != null; ) sb.append(l).append('\n');
      return sb.toString();
    }
  }
}

package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's JNI socket path, against the JDK's server channel and against itself. */
class NativeSocketTest {
  @TempDir Path dir;

  @Test
  void theBuildsLibraryIsLoadedInTheseTests() {
    assertTrue(NativeSocket.available(), "the build passes " + NativeSocket.LIBRARY_PROPERTY
        + "=" + System.getProperty(NativeSocket.LIBRARY_PROPERTY) + " and the library must load");
  }

  @Test
  void talksToAJdkServerLineByLine() throws Exception {
    Path sock = dir.resolve("gq.sock");
    try (FakeDaemon daemon = new FakeDaemon(sock, (req, in, out) -> {
          out.send(Frame.out("x".repeat(100_000) + "\n"));
          out.send(Frame.exit(3));
        });
        NativeSocket ch = NativeSocket.connect(sock.toString())) {
      new LineWriter(ch).write(new ClientRequest.Ping().toJson());
      LineReader in = new LineReader(ch);
      Frame first = Frame.decode(in.readLine());
      assertEquals(100_001, ((Frame.Out) first).text().length(), "a frame longer than one read");
      assertEquals(3, ((Frame.Exit) Frame.decode(in.readLine())).code());
      assertNull(in.readLine(), "end of stream after the daemon closed");
      assertEquals(1, daemon.requests.size());
    }
  }

  @Test
  void listensAndAcceptsForTheTrainingRun() throws Exception {
    Path sock = dir.resolve("t.sock");
    try (NativeSocket server = NativeSocket.listen(sock.toString());
        NativeSocket client = NativeSocket.connect(sock.toString());
        NativeSocket served = server.accept()) {
      client.write(ByteBuffer.wrap("hello\n".getBytes(StandardCharsets.UTF_8)));
      ByteBuffer direct = ByteBuffer.allocateDirect(16);
      int n = served.read(direct);
      direct.flip();
      byte[] got = new byte[n];
      direct.get(got);
      assertEquals("hello\n", new String(got, StandardCharsets.UTF_8));
      served.close();
      assertEquals(-1, client.read(ByteBuffer.allocate(8)));
    }
  }

  @Test
  void failedConnectsCarryTheirErrno() throws IOException {
    NativeSocket.Refused missing = assertThrows(NativeSocket.Refused.class,
        () -> NativeSocket.connect(dir.resolve("none.sock").toString()));
    assertEquals(NativeSocket.ENOENT, missing.errno);
    assertEquals("No such file or directory", missing.getMessage());
    Path plain = Files.createFile(dir.resolve("plain"));
    assertEquals(NativeSocket.ECONNREFUSED, assertThrows(NativeSocket.Refused.class,
        () -> NativeSocket.connect(plain.toString())).errno);
    assertEquals(36, assertThrows(NativeSocket.Refused.class,
        () -> NativeSocket.connect("/" + "x".repeat(200))).errno, "ENAMETOOLONG");
  }

  @Test
  void aClosedSocketRefusesReadsAndWrites() throws Exception {
    Path sock = dir.resolve("gq.sock");
    try (FakeDaemon daemon = new FakeDaemon(sock, (req, in, out) -> { })) {
      NativeSocket ch = NativeSocket.connect(sock.toString());
      ch.close();
      ch.close();
      assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
      assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));
    }
  }

  @Test
  void bothConnectorsSayNotRunningForAMissingOrStaleSocket() throws Exception {
    Path sock = dir.resolve("gq.sock");
    for (boolean useNative : new boolean[] {true, false}) {
      Files.deleteIfExists(sock);
      Connector c = new Connector(sock, useNative);
      assertNull(c.connect(), "no socket file, native=" + useNative);
      Files.createFile(sock);
      assertNull(c.connect(), "a stale file, native=" + useNative);
    }
  }

  @Test
  void bothConnectorsReachARunningDaemon() throws Exception {
    Path sock = dir.resolve("gq.sock");
    try (FakeDaemon daemon = new FakeDaemon(sock, (req, in, out) -> out.send(Frame.exit(0)))) {
      for (boolean useNative : new boolean[] {true, false}) {
        Connector c = new Connector(sock, useNative);
        assertTrue(c.answers(), "native=" + useNative);
        try (ByteChannel ch = c.connect()) {
          assertEquals(useNative, ch instanceof NativeSocket);
        }
      }
    }
  }
}

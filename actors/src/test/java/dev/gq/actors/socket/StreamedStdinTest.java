package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.cli.RefusedException;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The standard input a client streams to the daemon (gq mcp): its bytes exactly, and its end however it comes. */
@Timeout(20)
class StreamedStdinTest {
  @TempDir Path dir;
  ServerSocketChannel server;
  SocketChannel client;
  SocketChannel daemonSide;
  int streamRoom = 1;

  @BeforeEach
  void connect() throws Exception {
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(dir.resolve("s")));
    client = SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve("s")));
    daemonSide = server.accept();
  }

  @AfterEach
  void close() throws Exception {
    client.close();
    daemonSide.close();
    server.close();
  }

  private FrameIo io(boolean stdinStream) {
    var req = new ClientRequest.Run("id", List.of("mcp"), "/", Map.of(), false, false, false, 80, 0, false, stdinStream);
    FrameIo.StreamRoom room = new FrameIo.StreamRoom() {
      @Override
      public boolean enter() {
        return streamRoom-- > 0;
      }

      @Override
      public String busy() {
        return "no room for a stream";
      }
    };
    return new FrameIo(req, daemonSide, room, new LineWriter(daemonSide), new LineReader(daemonSide));
  }

  private void clientSends(String text) throws Exception {
    ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) client.write(b);
  }

  @Test
  void theBytesComeExactlyAsSentUntilTheEndOfInputAndTheClientStays() throws Exception {
    FrameIo io = io(true);
    InputStream in = io.streamStdin();
    assertEquals(new Frame.StdinStream(), Frame.decode(new LineReader(client).readLine()));
    LineWriter w = new LineWriter(client);
    w.send(new Frame.InBytes("{\"jsonrpc\":".getBytes(StandardCharsets.UTF_8)));
    w.send(new Frame.Keepalive()); // a frame of another kind is skipped
    w.send(new Frame.InBytes(new byte[] {(byte) 0xff, '\n'}));
    w.send(new Frame.StdinEnd());
    byte[] expected = {'{', '"', 'j', 's', 'o', 'n', 'r', 'p', 'c', '"', ':', (byte) 0xff, '\n'};
    assertArrayEquals(expected, in.readAllBytes());
    assertEquals(-1, in.read());
    assertFalse(io.closed(), "the client ended its input and waits for the answers");
  }

  @Test
  void aClientCutOffInTheMiddleOfAFrameEndsTheInputAndCountsAsGone() throws Exception {
    FrameIo io = io(true);
    InputStream in = io.streamStdin();
    new LineWriter(client).send(new Frame.InBytes("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8)));
    clientSends("{\"t\":\"inb\",\"b\":\"eyJq");
    client.close();
    assertEquals("{\"id\":1}\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    assertTrue(io.closed());
  }

  @Test
  void anInvalidFrameEndsTheInputAndCountsAsGone() throws Exception {
    FrameIo io = io(true);
    InputStream in = io.streamStdin();
    clientSends("{\"t\":\"inb\",\"b\":\"*\"}\n{\"t\":\"inb\",\"b\":\"eA==\"}\n");
    assertEquals(-1, in.read(), "nothing after an invalid frame is read");
    assertTrue(io.closed());
  }

  @Test
  void aClientThatDidNotSayItCanStreamIsRefusedWithOneLine() {
    RefusedException e = assertThrows(RefusedException.class, () -> io(false).streamStdin());
    assertTrue(e.getMessage().startsWith("this client cannot stream its standard input to the daemon; run 'gq mcp'"),
        e.getMessage());
  }

  @Test
  void aStreamNeedsRoomAmongTheStreams() {
    streamRoom = 0;
    RefusedException e = assertThrows(RefusedException.class, () -> io(true).streamStdin());
    assertEquals("no room for a stream", e.getMessage());
  }
}

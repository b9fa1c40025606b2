package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.cli.RefusedException;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's end of a connection: standard input on request, and noticing a client that left. */
@Timeout(20)
class FrameIoTest {
  @TempDir Path dir;
  ServerSocketChannel server;
  SocketChannel client;
  SocketChannel daemonSide;
  FrameIo io;
  int streamRoom = 1;

  @BeforeEach
  void connect() throws Exception {
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(dir.resolve("s")));
    client = SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve("s")));
    daemonSide = server.accept();
    var req = new ClientRequest.Run("id", List.of("submit"), "/", Map.of(), false, false, false, 80);
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
    io = new FrameIo(req, daemonSide, room, new LineWriter(daemonSide), new LineReader(daemonSide));
  }

  @AfterEach
  void close() throws Exception {
    client.close();
    daemonSide.close();
    server.close();
  }

  /** Plays the client: answers the stdin request with {@code answer}. */
  private CompletableFuture<Void> clientAnswers(Frame answer) {
    return CompletableFuture.runAsync(() -> {
      try {
        LineReader r = new LineReader(client);
        assertEquals(new Frame.StdinRequest(), Frame.decode(r.readLine()));
        new LineWriter(client).send(answer);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test
  void standardInputComesFromTheClientOnRequest() throws Exception {
    CompletableFuture<Void> c = clientAnswers(new Frame.Stdin("a\nb\n", null));
    assertEquals(Optional.of("a\nb\n"), io.readStdin());
    c.get();
  }

  @Test
  void theClientsErrorIsARefusal() throws Exception {
    CompletableFuture<Void> c = clientAnswers(new Frame.Stdin(null, "standard input is larger than 16 MiB"));
    assertEquals("standard input is larger than 16 MiB", assertThrows(RefusedException.class, io::readStdin).getMessage());
    c.get();
  }

  @Test
  void aClientThatLeftGivesNoInput() throws Exception {
    client.close();
    assertEquals(Optional.empty(), io.readStdin());
    assertTrue(io.closed());
  }

  @Test
  void aSilentCommandNoticesTheClientLeaving() throws Exception {
    assertFalse(io.closed());
    client.close();
    long end = System.nanoTime() + 10_000_000_000L;
    while (!io.closed() && System.nanoTime() < end) Thread.sleep(100);
    assertTrue(io.closed(), "a keepalive after a silent second finds the connection closed");
  }

  @Test
  void aStreamSeesItsClientLeaveAtOnceWithoutWaitingForAKeepalive() throws Exception {
    io.beginStream();
    assertFalse(io.closed());
    client.close();
    // the keepalive is a second away: only the peer's end of the stream can tell it this early
    assertTrue(io.closed());
  }

  @Test
  void aStreamThatFindsNoRoomIsRefusedWithTheLine() throws Exception {
    streamRoom = 0;
    assertEquals("no room for a stream", assertThrows(RefusedException.class, io::beginStream).getMessage());
    assertFalse(io.closed());
  }

  @Test
  void aStreamTakesItsRoomOnce() throws Exception {
    io.beginStream();
    io.beginStream();
    assertEquals(0, streamRoom);
  }

  private FrameIo screenIo(boolean screen) {
    var req = new ClientRequest.Run("id", List.of("top"), "/", Map.of(), true, true, false, 80, 24, screen);
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

  @Test
  void aFullScreenSaysSoThenGivesKeysAndSizesAndTheClientsEnd() throws Exception {
    FrameIo top = screenIo(true);
    assertTrue(top.screen());
    top.enterScreen();
    assertEquals(new Frame.Screen(), Frame.decode(new LineReader(client).readLine()));
    LineWriter w = new LineWriter(client);
    w.send(new Frame.Size(200, 50));
    w.send(new Frame.Key("\u001b[A"));
    w.send(new Frame.Answer("ignored"));
    w.send(new Frame.Key("q"));
    java.time.Duration wait = java.time.Duration.ofSeconds(10);
    assertEquals(Optional.of(new dev.gq.cli.ScreenInput.Resized(200, 50)), top.nextInput(wait));
    assertEquals(Optional.of(new dev.gq.cli.ScreenInput.Typed("\u001b[A")), top.nextInput(wait));
    assertEquals(Optional.of(new dev.gq.cli.ScreenInput.Typed("q")), top.nextInput(wait), "other frames are skipped");
    assertEquals(Optional.empty(), top.nextInput(java.time.Duration.ofMillis(1)));
    assertFalse(top.closed());
    client.shutdownOutput();
    assertEquals(Optional.of(new dev.gq.cli.ScreenInput.Gone()), top.nextInput(wait));
    assertEquals(Optional.of(new dev.gq.cli.ScreenInput.Gone()), top.nextInput(wait), "said again to every later call");
    assertTrue(top.closed());
    assertEquals(0, streamRoom, "a full screen counts as a stream");
  }

  @Test
  void aClientThatDidNotSayItCanShowAFullScreenIsNeverSentOne() {
    FrameIo old = screenIo(false);
    assertFalse(old.screen());
    assertThrows(RefusedException.class, old::enterScreen);
    assertEquals(1, streamRoom);
  }
}

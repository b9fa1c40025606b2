package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineWriterTest {
  @TempDir Path dir;

  @Test
  void framesCrossAUnixSocketWhileTheOtherSideReadsAndWrites() throws Exception {
    UnixDomainSocketAddress addr = UnixDomainSocketAddress.of(dir.resolve("s.sock"));
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(addr);
      try (SocketChannel client = SocketChannel.open(addr); SocketChannel conn = server.accept()) {
        LineReader clientIn = new LineReader(client);
        // the client blocks reading while the same channel is used to write: both must proceed
        CompletableFuture<String> pending = CompletableFuture.supplyAsync(() -> read(clientIn));
        Thread.sleep(50);
        new LineWriter(client).send(Frame.answer("from the client"));
        LineReader daemonIn = new LineReader(conn);
        assertEquals(Frame.answer("from the client"), Frame.decode(daemonIn.readLine()));
        new LineWriter(conn).send(Frame.out("ok 😀\n"));
        assertEquals(Frame.out("ok 😀\n"), Frame.decode(pending.get(5, TimeUnit.SECONDS)));
      }
    }
  }

  private static String read(LineReader r) {
    try {
      return r.readLine();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void textFramesOneAfterAnotherEachCarryTheirOwnText() throws Exception {
    ByteSink sink = new ByteSink();
    LineWriter w = new LineWriter(sink);
    List<Frame> sent = List.of(Frame.out("a\n".repeat(30_000)), Frame.err("short"), Frame.out("b".repeat(20_000)),
        Frame.out("é\"".repeat(5_000)), Frame.out(""), Frame.err("x\ty".repeat(10_000)));
    for (Frame f : sent) w.send(f);
    LineReader r = new LineReader(new LineReaderTest.Trickle(sink.bytes(), 1 << 16));
    for (Frame f : sent) assertEquals(f, Frame.decode(r.readLine()));
    assertEquals(null, r.readLine());
  }

  @Test
  void splitsLongOutputIntoFramesUnderTheLimit() throws Exception {
    String text = "é".repeat(LineWriter.CHUNK_CHARS * 2 + 10);
    ByteSink sink = new ByteSink();
    new LineWriter(sink).send(Frame.out(text));
    LineReader r = new LineReader(new LineReaderTest.Trickle(sink.bytes(), 1 << 16));
    StringBuilder joined = new StringBuilder();
    int frames = 0;
    for (String line; (line = r.readLine()) != null; frames++) {
      joined.append(((Frame.Out) Frame.decode(line)).text());
    }
    assertEquals(3, frames);
    assertEquals(text, joined.toString());
  }

  @Test
  void neverCutsASurrogatePair() {
    String text = "a".repeat(LineWriter.CHUNK_CHARS - 1) + "😀" + "b";
    List<String> parts = LineWriter.chunks(text);
    assertEquals(2, parts.size());
    assertTrue(parts.get(1).startsWith("😀"));
    assertEquals(text, String.join("", parts));
  }

  @Test
  void refusesALineOverTheLimitAndRawNewlines() {
    LineWriter w = new LineWriter(new ByteSink(), 10);
    assertInstanceOf(LineTooLongException.class,
        assertThrows(ProtocolException.class, () -> w.write("{\"s\":\"123456789\"}")));
    assertThrows(IllegalArgumentException.class, () -> w.write("{}\n{}"));
  }

  @Test
  void writesOneLinePerFrame() throws Exception {
    ByteSink sink = new ByteSink();
    LineWriter w = new LineWriter(sink);
    w.send(Frame.err("x\n"));
    w.send(Frame.exit(2));
    assertEquals("{\"t\":\"err\",\"s\":\"x\\n\"}\n{\"t\":\"exit\",\"code\":2}\n", sink.text());
  }
}

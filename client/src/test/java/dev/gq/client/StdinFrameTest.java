package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client answers a stdin request with its whole standard input, or says why it cannot. */
@Timeout(60)
class StdinFrameTest {
  @TempDir Path dir;
  Harness h;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
  }

  /** Asks for stdin and prints what came: "text=..." or "error=...". */
  private static void echoStdin(ClientRequest req, LineReader in, LineWriter out) throws Exception {
    out.send(new Frame.StdinRequest());
    Frame.Stdin s = (Frame.Stdin) Frame.decode(in.readLine());
    out.send(Frame.out(s.text() != null ? "text=" + s.text() : "error=" + s.error()));
    out.send(Frame.exit(0));
  }

  @Test
  void sendsTheWholeStandardInputAsText() throws Exception {
    h.stdin = "python a.py 'x y'\n{\"argv\": [\"b\\\\c\"]}\n\ttab\u0001 é😀\r\nno newline at the end";
    try (FakeDaemon d = new FakeDaemon(h.socket(), StdinFrameTest::echoStdin)) {
      assertEquals(0, h.run("submit", "--batch", "-"));
    }
    assertEquals("text=" + h.stdin, h.out);
  }

  @Test
  void emptyStandardInputIsEmptyText() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), StdinFrameTest::echoStdin)) {
      assertEquals(0, h.run("submit", "--batch", "-"));
    }
    assertEquals("text=", h.out);
  }

  @Test
  void aClosedStandardInputIsSaidSoAndNotRead() throws Exception {
    h.env.put("GQ_CLIENT_STDIN_CLOSED", "1");
    h.stdinStream = new Endless((byte) 'a');
    try (FakeDaemon d = new FakeDaemon(h.socket(), StdinFrameTest::echoStdin)) {
      assertEquals(0, h.run("submit", "--batch", "-"));
    }
    assertEquals("error=standard input is closed, so there is nothing to read; pipe the input in, or name a file", h.out);
  }

  @Test
  void inputOverTheLimitIsRefusedWithoutReadingItAll() throws Exception {
    h.stdinStream = new Endless((byte) 'a');
    try (FakeDaemon d = new FakeDaemon(h.socket(), StdinFrameTest::echoStdin)) {
      assertEquals(0, h.run("submit", "--batch", "-"));
    }
    assertEquals("error=" + FrameLoop.TOO_LARGE, h.out);
  }

  @Test
  void inputThatEscapingMakesTooLongIsRefused() throws Exception {
    h.stdinStream = new java.io.ByteArrayInputStream(new byte[9 << 20]);
    try (FakeDaemon d = new FakeDaemon(h.socket(), StdinFrameTest::echoStdin)) {
      assertEquals(0, h.run("submit", "--batch", "-"));
    }
    assertEquals("error=" + FrameLoop.TOO_LARGE, h.out);
  }

  /** A stream that never ends. */
  private static final class Endless extends InputStream {
    private final byte b;

    Endless(byte b) {
      this.b = b;
    }

    @Override public int read() {
      return b;
    }

    @Override public int read(byte[] buf, int off, int len) {
      java.util.Arrays.fill(buf, off, off + len, b);
      return len;
    }
  }
}

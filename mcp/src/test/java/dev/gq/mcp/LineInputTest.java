package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.mcp.LineInput.End;
import dev.gq.mcp.LineInput.NotUtf8;
import dev.gq.mcp.LineInput.Text;
import dev.gq.mcp.LineInput.TooLong;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Lines of standard input with a limit: what is over it is skipped as it arrives, and the next line reads as usual. */
class LineInputTest {

  private static InputStream bytes(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsLinesEmptyOnesAndALastOneWithoutItsNewline() throws Exception {
    LineInput in = new LineInput(bytes("a\n\nb\r\nc"), 100);
    assertEquals(new Text("a"), in.next());
    assertEquals(new Text(""), in.next());
    assertEquals(new Text("b"), in.next());
    assertEquals(new Text("c"), in.next());
    assertEquals(new End(), in.next());
    assertEquals(new End(), in.next());
  }

  @Test
  void aLineOverTheLimitIsReportedOnceAndSkippedWithoutBeingHeld() throws Exception {
    int max = 100_000;
    // 8 MiB of one line, produced as it is read: never in memory as a whole, here or in the reader
    InputStream huge = new InputStream() {
      long left = 8L << 20;

      @Override
      public int read() {
        return left-- > 0 ? 'x' : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) return -1;
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, (byte) 'x');
        left -= n;
        return n;
      }
    };
    LineInput in = new LineInput(new SequenceInputStream(new SequenceInputStream(bytes("first\n"), huge), bytes("\nnext\n")), max);
    assertEquals(new Text("first"), in.next());
    assertEquals(new TooLong(max), in.next());
    assertTrue(in.heldBytes() <= max, "held " + in.heldBytes() + " bytes");
    assertEquals(new Text("next"), in.next());
    assertEquals(new End(), in.next());
  }

  @Test
  void aLineOfExactlyTheLimitIsRead() throws Exception {
    LineInput in = new LineInput(bytes("x".repeat(10) + "\n" + "y".repeat(11) + "\n"), 10);
    assertEquals(new Text("x".repeat(10)), in.next());
    assertEquals(new TooLong(10), in.next());
  }

  @Test
  void aLineThatIsNotUtf8IsSaidSo() throws Exception {
    byte[] b = {'{', (byte) 0xff, '}', '\n', 'o', 'k', '\n'};
    LineInput in = new LineInput(new ByteArrayInputStream(b), 100);
    assertEquals(new NotUtf8(), in.next());
    assertEquals(new Text("ok"), in.next());
  }
}

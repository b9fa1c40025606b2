package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  /** A channel that hands out its bytes at most {@code step} at a time. */
  static final class Trickle implements ReadableByteChannel {
    private final byte[] data;
    private final int step;
    private int pos;

    Trickle(byte[] data, int step) {
      this.data = data;
      this.step = step;
    }

    Trickle(String text, int step) {
      this(text.getBytes(StandardCharsets.UTF_8), step);
    }

    @Override public int read(ByteBuffer dst) {
      if (pos == data.length) return -1;
      int n = Math.min(step, Math.min(dst.remaining(), data.length - pos));
      dst.put(data, pos, n);
      pos += n;
      return n;
    }

    @Override public boolean isOpen() { return true; }

    @Override public void close() {}
  }

  @Test
  void readsSeveralLinesFromOneRead() throws IOException {
    LineReader r = new LineReader(new Trickle("a\n{\"b\":1}\n\nlast\n", 1000));
    assertEquals("a", r.readLine());
    assertEquals("{\"b\":1}", r.readLine());
    assertEquals("", r.readLine());
    assertEquals("last", r.readLine());
    assertNull(r.readLine());
    assertNull(r.readLine());
  }

  @Test
  void joinsLinesSplitAcrossReadsEvenInsideACharacter() throws IOException {
    String text = "é😀日本\nsecond line\n";
    for (int step = 1; step <= 5; step++) {
      LineReader r = new LineReader(new Trickle(text, step));
      assertEquals("é😀日本", r.readLine());
      assertEquals("second line", r.readLine());
      assertNull(r.readLine());
    }
  }

  @Test
  void readsLinesLargerThanItsBuffers() throws IOException {
    String big = "x".repeat(300_000);
    LineReader r = new LineReader(new Trickle(big + "\n" + big + "y\n", 70_000));
    assertEquals(big, r.readLine());
    assertEquals(big + "y", r.readLine());
  }

  @Test
  void aLineCutByTheConnectionIsAnError() throws IOException {
    LineReader r = new LineReader(new Trickle("whole\n{\"t\":\"ou", 3));
    assertEquals("whole", r.readLine());
    ProtocolException e = assertThrows(ProtocolException.class, r::readLine);
    assertEquals("the connection closed in the middle of a line", e.getMessage());
  }

  @Test
  void acceptsALineOfExactlyTheLimit() throws IOException {
    LineReader r = new LineReader(new Trickle("12345678\n", 4), 8);
    assertEquals("12345678", r.readLine());
  }

  @Test
  void rejectsALineOverTheLimitBeforeReadingItAll() {
    LineReader r = new LineReader(new Trickle("123456789\n", 4), 8);
    LineTooLongException e = assertThrows(LineTooLongException.class, r::readLine);
    assertEquals("line longer than 8 bytes", e.getMessage());
    assertEquals(8, e.maxBytes());
  }

  @Test
  void rejectsAnOversizeLineAtTheProtocolLimit() {
    byte[] data = new byte[Protocol.MAX_LINE_BYTES + 2];
    Arrays.fill(data, (byte) 'a');
    data[data.length - 1] = '\n';
    LineReader r = new LineReader(new Trickle(data, 1 << 20));
    LineTooLongException e = assertThrows(LineTooLongException.class, r::readLine);
    assertEquals("line longer than 16 MiB", e.getMessage());
  }

  @Test
  void readsALineOfExactlyTheProtocolLimit() throws IOException {
    byte[] data = new byte[Protocol.MAX_LINE_BYTES + 1];
    Arrays.fill(data, (byte) 'a');
    data[data.length - 1] = '\n';
    LineReader r = new LineReader(new Trickle(data, 1 << 20));
    assertEquals(Protocol.MAX_LINE_BYTES, r.readLine().length());
  }

  @Test
  void keepsAGenuineReplacementCharacter() throws IOException {
    LineReader r = new LineReader(new Trickle("a\uFFFDb\n", 10));
    assertEquals("a\uFFFDb", r.readLine());
  }

  @Test
  void rejectsInvalidUtf8() {
    byte[] data = {'o', 'k', (byte) 0xC3, '\n'};
    LineReader r = new LineReader(new Trickle(data, 10));
    ProtocolException e = assertThrows(ProtocolException.class, r::readLine);
    assertEquals("a line is not valid UTF-8", e.getMessage());
  }
}

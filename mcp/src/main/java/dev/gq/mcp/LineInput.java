package dev.gq.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Standard input of {@code gq mcp} as lines of at most {@code maxBytes} bytes: a longer line is
 * reported once and the rest of it is read and dropped as it arrives, so it never sits in memory
 * whole. A line that is not UTF-8 is reported as such; a last line without its newline counts.
 * Read by one thread.
 */
final class LineInput {
  /** One read: a line's text, a line over the limit, a line that is not UTF-8, or the end. */
  sealed interface Line {}

  record Text(String text) implements Line {}

  record TooLong(int maxBytes) implements Line {}

  record NotUtf8() implements Line {}

  record End() implements Line {}

  private static final int KEEP_BYTES = 64 * 1024;

  private final InputStream in;
  private final int maxBytes;
  private final byte[] chunk = new byte[64 * 1024];
  private int pos;
  private int limit;
  private boolean ended;
  private byte[] line = new byte[4096];
  private int length;

  LineInput(InputStream in, int maxBytes) {
    this.in = in;
    this.maxBytes = maxBytes;
  }

  /** The next line; {@link End} once the input has ended (and for every call after). */
  Line next() throws IOException {
    length = 0;
    boolean tooLong = false;
    while (true) {
      if (pos == limit && !fill()) {
        if (tooLong) return new TooLong(maxBytes);
        return length == 0 ? new End() : decoded();
      }
      int nl = indexOfNewline();
      int end = nl < 0 ? limit : nl;
      if (!tooLong && end - pos > maxBytes - length) {
        tooLong = true; // from here on the line's bytes are only skipped
        length = 0;
      }
      if (!tooLong) append(end - pos);
      pos = nl < 0 ? limit : nl + 1;
      if (nl >= 0) return tooLong ? new TooLong(maxBytes) : decoded();
    }
  }

  /** The bytes held for the line being read: never more than the limit, whatever the input. */
  int heldBytes() {
    return line.length;
  }

  private boolean fill() throws IOException {
    if (ended) return false;
    int n = in.read(chunk);
    if (n < 0) {
      ended = true;
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  private int indexOfNewline() {
    for (int i = pos; i < limit; i++) {
      if (chunk[i] == '\n') return i;
    }
    return -1;
  }

  private void append(int count) {
    if (length + count > line.length) line = Arrays.copyOf(line, Math.max(length + count, Math.min(line.length * 2, maxBytes)));
    System.arraycopy(chunk, pos, line, length, count);
    length += count;
  }

  private Line decoded() {
    int n = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    Line decoded = decode(n);
    if (line.length > KEEP_BYTES) line = new byte[KEEP_BYTES]; // a big line's buffer is not kept
    return decoded;
  }

  /** Without a checking decoder for the usual line: malformed input shows as U+FFFD, so only then is it checked. */
  private Line decode(int n) {
    String s = new String(line, 0, n, StandardCharsets.UTF_8);
    if (s.indexOf('\uFFFD') < 0) return new Text(s);
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(line, 0, n));
      return new Text(s);
    } catch (CharacterCodingException e) {
      return new NotUtf8();
    }
  }
}

package dev.gq.mcp;

import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Standard input of {@code gq mcp} as lines of at most {@code maxBytes} bytes: a longer line is
 * reported once and the rest of it is read and dropped as it arrives, so it never sits in memory
 * whole. A long line is charged to the process's {@link RequestMemory} as it grows, {@value #COST}
 * times its size (its bytes, its text, what it is parsed into); one the budget has no room for is
 * reported as refused and dropped the same way, and a line read whole comes with its charge, which
 * its reader closes once the line is answered. A line that is not UTF-8 is reported as such; a last
 * line without its newline counts. Read by one thread.
 */
final class LineInput {
  /** One read: a line's text, a line over the limit, a line that is not UTF-8, or the end. */
  sealed interface Line {}

  record Text(String text, RequestMemory.Charge held) implements Line {
    Text(String text) {
      this(text, RequestMemory.FREE);
    }
  }

  /** A line dropped because the memory it needs is not to be had now: the one line to answer it with. */
  record Refused(String message) implements Line {}

  record TooLong(int maxBytes) implements Line {}

  record NotUtf8() implements Line {}

  record End() implements Line {}

  private static final int KEEP_BYTES = 64 * 1024;
  /** How many times its size a line costs while it is held: its bytes, its text and what it is parsed into. */
  static final int COST = 3;

  private final InputStream in;
  private final int maxBytes;
  private final RequestMemory memory;
  /** The charge of the line being read; null while it fits the small buffer. */
  private RequestMemory.Charge charge;
  /** Why the line being read is dropped for want of memory; null while it is not. */
  private String refused;
  private final byte[] chunk = new byte[64 * 1024];
  private int pos;
  private int limit;
  private boolean ended;
  private byte[] line = new byte[4096];
  private int length;

  LineInput(InputStream in, int maxBytes) {
    this(in, maxBytes, RequestMemory.UNBOUNDED);
  }

  LineInput(InputStream in, int maxBytes, RequestMemory memory) {
    this.in = in;
    this.maxBytes = maxBytes;
    this.memory = memory;
  }

  /** The next line; {@link End} once the input has ended (and for every call after). */
  Line next() throws IOException {
    length = 0;
    refused = null;
    boolean tooLong = false;
    while (true) {
      if (pos == limit && !fill()) {
        if (tooLong || refused != null) return dropped(tooLong);
        return length == 0 ? new End() : decoded();
      }
      int nl = indexOfNewline();
      int end = nl < 0 ? limit : nl;
      if (!tooLong && refused == null && end - pos > maxBytes - length) {
        tooLong = true; // from here on the line's bytes are only skipped
        drop();
      }
      if (!tooLong && refused == null) append(end - pos);
      pos = nl < 0 ? limit : nl + 1;
      if (nl >= 0) return tooLong || refused != null ? dropped(tooLong) : decoded();
    }
  }

  /** The report of a line whose bytes were skipped: too long, or refused for want of memory. */
  private Line dropped(boolean tooLong) {
    return tooLong ? new TooLong(maxBytes) : new Refused(refused);
  }

  /** Gives up the line read so far: its buffer and its charge. */
  private void drop() {
    length = 0;
    if (line.length > KEEP_BYTES) line = new byte[KEEP_BYTES];
    if (charge != null) charge.close();
    charge = null;
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
    if (length + count > line.length) {
      int size = Math.max(length + count, Math.min(line.length * 2, maxBytes));
      if (size > KEEP_BYTES && !charged(size)) return;
      line = Arrays.copyOf(line, size);
    }
    System.arraycopy(chunk, pos, line, length, count);
    length += count;
  }

  /** Whether the budget grants a line buffer of {@code size} bytes; when not, the line is dropped from here on. */
  private boolean charged(int size) {
    if (charge == null) charge = memory.charge();
    try {
      charge.grow((int) Math.min(Integer.MAX_VALUE, (long) COST * size));
      return true;
    } catch (ProtocolException e) {
      refused = e.getMessage();
      drop();
      return false;
    }
  }

  private Line decoded() {
    int n = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    Line decoded = decode(n);
    if (line.length > KEEP_BYTES) line = new byte[KEEP_BYTES]; // a big line's buffer is not kept
    RequestMemory.Charge held = charge;
    charge = null;
    if (held == null) return decoded;
    if (decoded instanceof Text t) return new Text(t.text(), held);
    held.close();
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

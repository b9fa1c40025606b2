package dev.gq.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads newline-terminated UTF-8 lines from a blocking channel (a unix {@code SocketChannel}) with
 * a size limit, using {@code read(ByteBuffer)} directly so that another thread may write to the
 * same channel at the same time. Not thread-safe: one reader per connection, read by one thread.
 */
public final class LineReader {
  private static final int KEEP_BYTES = 64 * 1024;

  /**
   * Memory a reader must be granted before its line buffer grows to {@code capacity} bytes (the
   * daemon shares a bound among its connections); throws with the one line to show when it cannot.
   */
  public interface Budget {
    void grow(int capacity) throws ProtocolException;
  }

  private final ReadableByteChannel channel;
  private final int maxBytes;
  private final Budget budget;
  private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
  private byte[] line = new byte[4096];
  private int length;

  public LineReader(ReadableByteChannel channel, int maxBytes, Budget budget) {
    this.channel = channel;
    this.maxBytes = maxBytes;
    this.budget = budget;
    buf.flip();
  }

  public LineReader(ReadableByteChannel channel, int maxBytes) {
    this(channel, maxBytes, null);
  }

  /** A reader with the protocol's limit, {@link Protocol#MAX_LINE_BYTES}. */
  public LineReader(ReadableByteChannel channel) {
    this(channel, Protocol.MAX_LINE_BYTES);
  }

  /**
   * The next line without its newline, or null when the peer closed the connection between
   * lines. Throws {@link LineTooLongException} past the limit, and {@link ProtocolException} for
   * invalid UTF-8 or a connection closed in the middle of a line.
   */
  public String readLine() throws IOException {
    length = 0;
    while (true) {
      int nl = indexOfNewline();
      if (nl >= 0) {
        append(nl - buf.position());
        buf.position(nl + 1);
        String s = decode();
        // a big line's buffer is not kept for the rest of the connection
        if (line.length > KEEP_BYTES) line = new byte[KEEP_BYTES];
        return s;
      }
      append(buf.remaining());
      buf.clear();
      int n = channel.read(buf);
      buf.flip();
      if (n < 0) {
        if (length == 0) return null;
        throw new ProtocolException("the connection closed in the middle of a line");
      }
    }
  }

  private int indexOfNewline() {
    byte[] a = buf.array();
    for (int i = buf.position(), end = buf.limit(); i < end; i++) {
      if (a[i] == '\n') return i;
    }
    return -1;
  }

  private void append(int count) throws ProtocolException {
    if (count > maxBytes - length) throw new LineTooLongException(maxBytes);
    if (length + count > line.length) {
      int size = Math.max(length + count, Math.min(line.length * 2, maxBytes));
      if (budget != null) budget.grow(size);
      line = Arrays.copyOf(line, size);
    }
    buf.get(line, length, count);
    length += count;
  }

  /**
   * Decodes without a UTF-16 buffer of the whole line (compact strings keep ASCII at one byte a
   * char); malformed input shows as U+FFFD, so only then is the line checked strictly.
   */
  private String decode() throws ProtocolException {
    String s = new String(line, 0, length, StandardCharsets.UTF_8);
    if (s.indexOf('\uFFFD') < 0) return s;
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(line, 0, length));
      return s;
    } catch (CharacterCodingException e) {
      throw new ProtocolException("a line is not valid UTF-8");
    }
  }
}

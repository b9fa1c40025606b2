package dev.gq.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The client's side of a {@code stdin} frame: reads standard input to its end in chunks (never
 * more than the limit, and never as one big array) and writes it as one frame line, escaping the
 * bytes as JSON on the way. Bytes are sent as they are read; the daemon refuses input that is not
 * UTF-8 when it reads the line.
 */
public final class StdinText {
  private static final int CHUNK = 1 << 20;
  private static final byte[] HEAD = "{\"t\":\"stdin\",\"s\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TAIL = "\"}\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private StdinText() {}

  /** The whole stream in chunks, or null when it holds more than {@code maxBytes}. */
  public static List<byte[]> readAll(InputStream in, long maxBytes) throws IOException {
    List<byte[]> chunks = new ArrayList<>();
    long total = 0;
    while (true) {
      byte[] chunk = in.readNBytes(CHUNK);
      if (chunk.length == 0) return chunks;
      total += chunk.length;
      if (total > maxBytes) return null;
      chunks.add(chunk);
    }
  }

  /** The length of the frame line {@link #write} would write, newline excluded. */
  public static long frameLength(List<byte[]> chunks) {
    long n = HEAD.length + TAIL.length - 1;
    for (byte[] c : chunks) for (byte b : c) n += escapedLength(b);
    return n;
  }

  /** Writes {@code {"t":"stdin","s":"..."}} and its newline, in pieces of at most 64 KiB. */
  public static void write(WritableByteChannel ch, List<byte[]> chunks) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
    buf.put(HEAD);
    for (byte[] c : chunks) {
      for (byte b : c) {
        if (buf.remaining() < 6) drain(ch, buf);
        escape(buf, b);
      }
    }
    if (buf.remaining() < TAIL.length) drain(ch, buf);
    buf.put(TAIL);
    drain(ch, buf);
  }

  private static int escapedLength(byte b) {
    if (b == '"' || b == '\\' || b == '\n' || b == '\r' || b == '\t') return 2;
    return b >= 0 && b < 0x20 ? 6 : 1;
  }

  private static void escape(ByteBuffer buf, byte b) {
    switch (b) {
      case '"', '\\' -> buf.put((byte) '\\').put(b);
      case '\n' -> buf.put((byte) '\\').put((byte) 'n');
      case '\r' -> buf.put((byte) '\\').put((byte) 'r');
      case '\t' -> buf.put((byte) '\\').put((byte) 't');
      default -> {
        if (b >= 0 && b < 0x20) buf.put((byte) '\\').put((byte) 'u').put((byte) '0').put((byte) '0').put(HEX[b >> 4]).put(HEX[b & 15]);
        else buf.put(b);
      }
    }
  }

  private static void drain(WritableByteChannel ch, ByteBuffer buf) throws IOException {
    buf.flip();
    while (buf.hasRemaining()) ch.write(buf);
    buf.clear();
  }
}

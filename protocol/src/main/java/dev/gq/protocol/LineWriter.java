package dev.gq.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes newline-terminated UTF-8 lines to a blocking channel with {@code write(ByteBuffer)}.
 * Thread-safe: each line goes out whole, so stdout and stderr frames from two threads never mix.
 * {@link #send} splits long stdout/stderr text into several frames so no line passes the limit.
 */
public final class LineWriter {
  /**
   * Text chars per out/err frame: at most 1.5 MiB of JSON (an escaped char takes 6 bytes), so a
   * client with a small heap reads any frame this writer sends.
   */
  static final int CHUNK_CHARS = 1 << 18;

  private final WritableByteChannel channel;
  private final int maxBytes;
  /** The most bytes of room kept for the next text line: about a line of 64 Ki characters. */
  private static final int ROOM_KEPT = 80 * 1024;
  /** Where the last text line was made, for the next one. */
  private byte[] room = new byte[0];

  public LineWriter(WritableByteChannel channel, int maxBytes) {
    this.channel = channel;
    this.maxBytes = maxBytes;
  }

  /** A writer with the protocol's limit, {@link Protocol#MAX_LINE_BYTES}. */
  public LineWriter(WritableByteChannel channel) {
    this(channel, Protocol.MAX_LINE_BYTES);
  }

  /** Sends a frame; out and err text is split into chunks when long. */
  public void send(Frame frame) throws IOException {
    if (frame instanceof Frame.Out o) text("out", o.text());
    else if (frame instanceof Frame.Err e) text("err", e.text());
    else write(frame.toJson());
  }

  /**
   * Sends {@code text} in frames of {@code type}, each line made in the room of the line before
   * (the frames of a long output are about the same size, so it is made once).
   */
  private synchronized void text(String type, String text) throws IOException {
    for (String part : chunks(text)) {
      ByteBuffer line = TextLines.line(type, part, room);
      // kept up to a frame of FrameStreams' size: a rare longer one is not held for the connection's life
      if (line.array() != room && line.capacity() <= ROOM_KEPT) room = line.array();
      write(line);
    }
  }

  /** Writes one line of JSON (which must not contain a raw newline) followed by "\n". */
  public void write(String json) throws IOException {
    if (json.indexOf('\n') >= 0) throw new IllegalArgumentException("a line must not contain a newline");
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > maxBytes) throw new LineTooLongException(maxBytes);
    write(ByteBuffer.allocate(bytes.length + 1).put(bytes).put((byte) '\n').flip());
  }

  /** Writes a whole line, its newline included, at most {@code maxBytes} before the newline. */
  private void write(ByteBuffer line) throws IOException {
    if (line.remaining() - 1 > maxBytes) throw new LineTooLongException(maxBytes);
    synchronized (this) {
      while (line.hasRemaining()) channel.write(line);
    }
  }

  /** {@code text} in parts of at most {@link #CHUNK_CHARS}: itself when it is short. */
  static List<String> chunks(String text) {
    if (text.length() <= CHUNK_CHARS) return List.of(text);
    List<String> parts = new ArrayList<>();
    for (int start = 0; start < text.length(); ) {
      int end = Math.min(text.length(), start + CHUNK_CHARS);
      // never cut a surrogate pair in two
      if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) end--;
      parts.add(text.substring(start, end));
      start = end;
    }
    return parts;
  }
}

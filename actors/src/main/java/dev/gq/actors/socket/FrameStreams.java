package dev.gq.actors.socket;

import dev.gq.protocol.Frame;
import java.io.OutputStream;
import java.io.Writer;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The streams a command writes to its client through ({@link FrameIo}): text that becomes one
 * {@code out} or {@code err} frame per flush (or per 64 KiB), and bytes for stdout that become
 * {@code outb} frames as they are. Each hands its frames to one sink, which sends them in order.
 */
final class FrameStreams {
  private FrameStreams() {}

  /**
   * Collects text and sends it as one out or err frame per flush, and a frame each time 64 KiB
   * gather: a long text printed at once leaves in frames of that size, never copied whole, and
   * no frame ends inside a character.
   */
  static final class Text extends Writer {
    static final int FRAME_CHARS = 65536;
    private final Consumer<Frame> sink;
    private final boolean stderr;
    private final StringBuilder buf = new StringBuilder();

    Text(Consumer<Frame> sink, boolean stderr) {
      this.sink = sink;
      this.stderr = stderr;
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      for (int end = off + len; off < end; ) {
        int n = room(end - off, cbuf[Math.min(end, off + FRAME_CHARS - buf.length()) - 1]);
        buf.append(cbuf, off, n);
        off += n;
        if (buf.length() >= FRAME_CHARS - 1) flush();
      }
    }

    @Override
    public void write(String str, int off, int len) {
      for (int end = off + len; off < end; ) {
        int n = room(end - off, str.charAt(Math.min(end, off + FRAME_CHARS - buf.length()) - 1));
        buf.append(str, off, off + n);
        off += n;
        if (buf.length() >= FRAME_CHARS - 1) flush();
      }
    }

    /** How many of {@code left} chars go into this frame; one fewer when the last would be the first half of a pair. */
    private int room(int left, char last) {
      int free = FRAME_CHARS - buf.length();
      if (left <= free) return left;
      return Character.isHighSurrogate(last) ? free - 1 : free;
    }

    @Override
    public void flush() {
      if (buf.isEmpty()) return;
      String s = buf.toString();
      buf.setLength(0);
      sink.accept(stderr ? new Frame.Err(s) : new Frame.Out(s));
    }

    @Override
    public void close() {
      flush();
    }
  }

  /**
   * Sends bytes for stdout as {@code outb} frames, after the text written so far ({@code before}
   * flushes it); unbuffered: a job's log is read in blocks already.
   */
  static final class Bytes extends OutputStream {
    private final Consumer<Frame> sink;
    private final Runnable before;

    Bytes(Consumer<Frame> sink, Runnable before) {
      this.sink = sink;
      this.before = before;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      before.run();
      for (int start = off; start < off + len; start += Frame.OutBytes.MAX_BYTES) {
        int end = Math.min(off + len, start + Frame.OutBytes.MAX_BYTES);
        sink.accept(new Frame.OutBytes(Arrays.copyOfRange(b, start, end)));
      }
    }
  }
}

package dev.gq.actors.socket;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import java.io.IOException;
import java.io.InputStream;

/**
 * A client's standard input as it streams it ({@code inb} frames, then {@code stdin_end}), read as
 * bytes: {@code gq mcp} served in the daemon reads its messages from it. It ends at
 * {@code stdin_end}, and also when the client goes, when a line is cut off or invalid, or too long
 * for the frame budget: then {@code gone} is told, since nothing more can be read from that client.
 * Other frames (a later version's) are skipped. Read by one thread.
 */
final class StreamedStdin extends InputStream {
  private final LineReader reader;
  private final Runnable gone;
  private byte[] chunk = new byte[0];
  private int pos;
  private boolean ended;

  StreamedStdin(LineReader reader, Runnable gone) {
    this.reader = reader;
    this.gone = gone;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) return 0;
    while (pos == chunk.length) {
      if (ended || !next()) return -1;
    }
    int n = Math.min(len, chunk.length - pos);
    System.arraycopy(chunk, pos, b, off, n);
    pos += n;
    return n;
  }

  /** Reads the next frame: true when it brought bytes, false at the end (said once). */
  private boolean next() {
    try {
      String line = reader.readLine();
      if (line == null) return end(true);
      Frame f = Frame.decode(line);
      if (f instanceof Frame.StdinEnd) return end(false);
      if (f instanceof Frame.InBytes in) {
        chunk = in.bytes();
        pos = 0;
      }
      return true;
    } catch (IOException | RuntimeException e) {
      // cut off mid-line, not a frame, over the budget: nothing after it can be trusted
      return end(true);
    }
  }

  private boolean end(boolean clientGone) {
    ended = true;
    if (clientGone) gone.run();
    return false;
  }
}

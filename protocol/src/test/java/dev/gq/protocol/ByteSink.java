package dev.gq.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/** A channel that keeps what is written to it, a few bytes per call to exercise partial writes. */
final class ByteSink implements WritableByteChannel {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @Override public int write(ByteBuffer src) {
    int n = Math.min(src.remaining(), 1 << 20);
    byte[] b = new byte[n];
    src.get(b);
    out.write(b, 0, n);
    return n;
  }

  byte[] bytes() { return out.toByteArray(); }

  String text() { return out.toString(StandardCharsets.UTF_8); }

  @Override public boolean isOpen() { return true; }

  @Override public void close() {}
}

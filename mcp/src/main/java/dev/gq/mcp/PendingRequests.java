package dev.gq.mcp;

import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The requests read from standard input that have no answer on standard output yet, by JSON-RPC
 * id. The SDK's stdio transport stops at the end of its input and drops requests it has read but
 * not yet answered, so the watched input holds its end back until each request read has its
 * answer (or {@link #ANSWER_MILLIS} have passed): a client that writes its requests and closes the
 * pipe still gets every answer. Only watches the bytes; the SDK reads and writes them.
 */
final class PendingRequests {
  /** How long requests read before the input ended may still take to be answered. */
  static final long ANSWER_MILLIS = 120_000;

  private final Set<Object> open = new HashSet<>();
  private boolean ended;

  InputStream watch(InputStream in) {
    Lines lines = new Lines(line -> seen(line, true));
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
          n = super.read(b, off, len);
        } catch (IOException e) {
          end();
          throw e;
        }
        if (n >= 0) lines.accept(b, off, n);
        else {
          awaitAnswered();
          end();
        }
        return n;
      }
    };
  }

  OutputStream watch(OutputStream out) {
    Lines lines = new Lines(line -> seen(line, false));
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        lines.accept(b, off, len);
      }

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }
    };
  }

  /** Waits until the input has ended (and been passed on). */
  synchronized void awaitEnded() throws InterruptedException {
    while (!ended) wait();
  }

  private synchronized void awaitAnswered() throws InterruptedIOException {
    long deadline = System.currentTimeMillis() + ANSWER_MILLIS;
    try {
      for (long left = ANSWER_MILLIS; !open.isEmpty() && left > 0; left = deadline - System.currentTimeMillis()) wait(left);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while requests were still being answered");
    }
  }

  private synchronized void end() {
    ended = true;
    notifyAll();
  }

  private synchronized void seen(String line, boolean inbound) {
    Object id;
    boolean request;
    try {
      if (!(Json.parse(line) instanceof Map<?, ?> m) || (id = m.get("id")) == null) return;
      request = m.containsKey("method");
    } catch (ProtocolException e) {
      return; // the SDK answers a line it cannot read
    }
    if (inbound && request) open.add(id);
    if (!inbound && !request) open.remove(id);
    notifyAll();
  }

  /** Splits bytes into lines as they pass. */
  private static final class Lines {
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private final Consumer<String> sink;

    Lines(Consumer<String> sink) {
      this.sink = sink;
    }

    synchronized void accept(byte[] b, int off, int len) {
      for (int i = off; i < off + len; i++) {
        if (b[i] != '\n') {
          partial.write(b[i]);
          continue;
        }
        sink.accept(partial.toString(StandardCharsets.UTF_8));
        partial.reset();
      }
    }
  }
}

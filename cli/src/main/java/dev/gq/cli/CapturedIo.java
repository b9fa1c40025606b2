package dev.gq.cli;

import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The terminal of one command that {@code gq mcp}'s tools run inside the daemon, as the client
 * library describes it when it runs one for the server in a JVM of its own: no stream is a
 * terminal, standard input is closed (so nothing prompts), and standard output (text and raw bytes
 * in the order written) and standard error are kept to be read once the command has ended. What is
 * kept is charged to {@code held} as it grows, {@value #COST} times its size (the bytes, their text,
 * the answer they go into); output the budget has no room for is dropped, the command sees its
 * client gone ({@link #closed()}), and {@link #refused()} says why.
 */
final class CapturedIo implements Io {
  /** How many times its size captured output costs until its answer is written. */
  static final int COST = 3;
  private final RequestMemory.Charge held;
  private volatile String refused;
  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream() {
    @Override public synchronized void write(byte[] b, int off, int len) {
      if (refused == null && charged(count + len)) super.write(b, off, len);
    }

    @Override public synchronized void write(int b) {
      if (refused == null && charged(count + 1)) super.write(b);
    }
  };
  private final StringWriter stderr = new StringWriter();
  private final PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), false);
  private final PrintWriter err = new PrintWriter(stderr, false);
  private final OutputStream rawOut = new OutputStream() {
    @Override public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override public void write(byte[] b, int off, int len) {
      out.flush();
      stdout.write(b, off, len);
    }
  };
  private final Map<String, String> env;
  private final Path cwd;
  private final int width;

  CapturedIo(Map<String, String> env, Path cwd, int width) {
    this(env, cwd, width, RequestMemory.FREE);
  }

  CapturedIo(Map<String, String> env, Path cwd, int width, RequestMemory.Charge held) {
    this.env = env;
    this.cwd = cwd;
    this.width = width;
    this.held = held;
  }

  /** Why output was dropped for want of memory; null when all of it was kept. */
  String refused() {
    return refused;
  }

  private boolean charged(int size) {
    try {
      held.grow((int) Math.min(Integer.MAX_VALUE, (long) COST * size));
      return true;
    } catch (ProtocolException e) {
      refused = e.getMessage();
      return false;
    }
  }

  /** What the command wrote to standard output, as UTF-8 text. */
  String stdout() {
    out.flush();
    return stdout.toString(StandardCharsets.UTF_8);
  }

  String stderr() {
    err.flush();
    return stderr.toString();
  }

  @Override public PrintWriter out() { return out; }
  @Override public PrintWriter err() { return err; }
  @Override public OutputStream rawOut() { return rawOut; }
  @Override public boolean stdinTty() { return false; }
  @Override public boolean stdoutTty() { return false; }
  @Override public boolean stderrTty() { return false; }
  @Override public int width() { return width; }
  @Override public Path cwd() { return cwd; }
  @Override public Map<String, String> env() { return env; }
  @Override public Optional<String> prompt(String question) { return Optional.empty(); }
  @Override public boolean closed() { return refused != null; }

  @Override
  public Optional<String> readStdin() {
    throw new RefusedException("standard input is closed, so there is nothing to read; name a file instead");
  }
}

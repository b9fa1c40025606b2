package dev.gq.cli;

import dev.gq.protocol.RequestMemory;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A terminal in memory: captures stdout and stderr, answers prompts from a script, records questions. */
final class FakeIo implements Io {
  /** Standard output, text and raw bytes in the order written. */
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final StringWriter err = new StringWriter();
  private final PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
  private final PrintWriter errWriter = new PrintWriter(err, true);
  final Map<String, String> env = new HashMap<>();
  final Deque<String> answers = new ArrayDeque<>();
  final List<String> questions = new ArrayList<>();
  boolean stdinTty = true;
  boolean stdoutTty = true;
  boolean stderrTty;
  int width = 100;
  int height;
  Path cwd;
  volatile boolean closed;

  FakeIo(Path cwd) {
    this.cwd = cwd;
    env.put("HOME", cwd.toString());
    env.put("PATH", "/usr/bin:/bin");
  }

  String stdout() {
    outWriter.flush();
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  String stderr() {
    return err.toString();
  }

  @Override public PrintWriter out() {
    return outWriter;
  }

  /** Every byte written to {@link #rawOut()}, exactly; the text view of them is in {@link #stdout()}. */
  final ByteArrayOutputStream rawBytes = new ByteArrayOutputStream();

  @Override public OutputStream rawOut() {
    return new OutputStream() {
      @Override public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override public void write(byte[] b, int off, int len) {
        outWriter.flush();
        rawBytes.write(b, off, len);
        synchronized (out) {
          out.write(b, off, len);
        }
      }
    };
  }

  @Override public PrintWriter err() {
    return errWriter;
  }

  @Override public boolean stdinTty() {
    return stdinTty;
  }

  @Override public boolean stdoutTty() {
    return stdoutTty;
  }

  @Override public boolean stderrTty() {
    return stderrTty;
  }

  @Override public int height() {
    return stdoutTty ? height : 0;
  }

  @Override public int width() {
    return width;
  }

  @Override public Path cwd() {
    return cwd;
  }

  @Override public Map<String, String> env() {
    return env;
  }

  @Override public Optional<String> prompt(String question) {
    questions.add(question);
    return Optional.ofNullable(answers.poll());
  }

  /** What the caller pipes in; null: no standard input (the client went away). */
  String stdin;
  int stdinReads;

  @Override public Optional<String> readStdin() {
    stdinReads++;
    return Optional.ofNullable(stdin);
  }

  /** What the caller streams in (gq mcp); null: a client that cannot stream its input. */
  byte[] streamed;
  /** The budget what the request holds is charged to (the daemon's is shared). */
  RequestMemory memory = RequestMemory.UNBOUNDED;

  @Override public RequestMemory memory() {
    return memory;
  }

  @Override public java.io.InputStream streamStdin() {
    return streamed == null ? Io.super.streamStdin() : new java.io.ByteArrayInputStream(streamed);
  }

  @Override public boolean closed() {
    return closed;
  }

  /** Whether this client shows a full screen ({@code gq top}); what it types and its sizes come from {@link #inputs}. */
  volatile boolean screen;
  final BlockingQueue<ScreenInput> inputs = new LinkedBlockingQueue<>();

  @Override public boolean screen() {
    return screen;
  }

  @Override public void enterScreen() {
    if (!screen) Io.super.enterScreen();
  }

  @Override public Optional<ScreenInput> nextInput(Duration timeout) throws InterruptedException {
    ScreenInput in = inputs.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (in instanceof ScreenInput.Gone) inputs.add(in);
    return Optional.ofNullable(in);
  }

  /** The client goes, as the daemon sees it: closed from now, and the end of its input. */
  void leave() {
    closed = true;
    inputs.add(new ScreenInput.Gone());
  }
}

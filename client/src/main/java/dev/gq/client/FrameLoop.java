package dev.gq.client;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineTooLongException;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.Protocol;
import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.StdinText;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * One connection's conversation from the client side: sends the request line once, then copies
 * out/err frames to stdout/stderr (flushed per frame; outb bytes unchanged), answers prompts from the {@link Terminal}
 * and stdin requests from standard input, and returns the exit frame's code. Whatever goes wrong on the way is a {@link ClientFailure} that
 * points at the daemon log.
 */
final class FrameLoop {
  /** The exit code of a client whose stdout reader went away: 128 + SIGPIPE, as a shell reports it. */
  static final int CLOSED_PIPE = 141;
  static final String TOO_LARGE = "standard input is larger than 16 MiB; split the input into several parts";
  static final String CLOSED = "standard input is closed, so there is nothing to read; pipe the input in, or name a file";
  private final ByteChannel channel;
  private final LineReader reader;
  private final LineWriter writer;
  private final OutputStream out;
  private final OutputStream err;
  private final Terminal terminal;
  private final Path daemonLog;
  private final InputStream stdin;
  private Watchdog watchdog;
  private long skipStdout;
  private long stdoutBytes;
  private boolean closedEarly;

  FrameLoop(ByteChannel channel, OutputStream out, OutputStream err, Terminal terminal,
      Path daemonLog) {
    this(channel, out, err, terminal, daemonLog, null);
  }

  FrameLoop(ByteChannel channel, OutputStream out, OutputStream err, Terminal terminal,
      Path daemonLog, InputStream stdin) {
    this.channel = channel;
    this.reader = new LineReader(channel, Protocol.MAX_LINE_BYTES);
    this.writer = new LineWriter(channel);
    this.out = out;
    this.err = err;
    this.terminal = terminal;
    this.daemonLog = daemonLog;
    this.stdin = stdin;
  }

  /** Reads of this loop are watched: a daemon that stops answering ends them with its verdict. */
  FrameLoop watchedBy(Watchdog w) {
    this.watchdog = w;
    return this;
  }

  /** The first {@code bytes} of stdout were printed by an earlier connection: they are not printed again. */
  FrameLoop skippingStdout(long bytes) {
    this.skipStdout = bytes;
    return this;
  }

  /** Bytes of stdout this connection's frames carried, the skipped ones included. */
  long stdoutBytes() {
    return stdoutBytes;
  }

  /** Whether the connection ended before the exit frame (the daemon stopped or restarted). */
  boolean closedEarly() {
    return closedEarly;
  }

  /** Sends {@code requestJson} (never again) and plays the frames until the exit frame. */
  int run(String requestJson) throws ClientFailure {
    try {
      writer.write(requestJson);
    } catch (IOException e) {
      // the daemon may have refused the request and closed: its frames say why
    }
    while (true) {
      Frame f = next();
      if (f instanceof Frame.Out o) writeStdout(o.text());
      else if (f instanceof Frame.OutBytes b) writeStdout(b.bytes());
      else if (f instanceof Frame.Err e) writeStderr(e.text());
      else if (f instanceof Frame.Prompt p) answer(p.question());
      else if (f instanceof Frame.StdinRequest) sendStdin();
      else if (f instanceof Frame.Exit x) return x.code();
      // pong and frame types of later versions: nothing to do
    }
  }

  /** Sends one line; the connection already closed is a failure. */
  void send(String json) throws ClientFailure {
    try {
      writer.write(json);
    } catch (IOException e) {
      throw closedEarly(daemonLog);
    }
  }

  /** The next frame; the connection closing first is a failure. */
  Frame next() throws ClientFailure {
    String line;
    if (watchdog != null) watchdog.waiting(channel);
    try {
      line = reader.readLine();
    } catch (LineTooLongException e) {
      throw new ClientFailure("the daemon sent a frame larger than "
          + LineTooLongException.describe(e.maxBytes()) + "; see " + daemonLog);
    } catch (IOException e) {
      line = null;
    } finally {
      if (watchdog != null) watchdog.answered();
    }
    if (line == null && watchdog != null && watchdog.verdict() != null) throw new ClientFailure(watchdog.verdict());
    if (line == null) {
      closedEarly = true;
      throw closedEarly(daemonLog);
    }
    try {
      return Frame.decode(line);
    } catch (ProtocolException e) {
      throw new ClientFailure("the daemon sent an " + e.getMessage() + "; see " + daemonLog);
    }
  }

  static ClientFailure closedEarly(Path daemonLog) {
    return new ClientFailure("the daemon closed the connection before answering; see " + daemonLog);
  }

  private void answer(String question) throws ClientFailure {
    String line;
    try {
      line = terminal.ask(question);
    } catch (IOException e) {
      line = null;
    }
    try {
      writer.send(Frame.answer(line));
    } catch (IOException e) {
      throw closedEarly(daemonLog);
    }
  }

  /** Answers a stdin request with the whole of standard input, or with why it cannot be sent. */
  private void sendStdin() throws ClientFailure {
    String error = null;
    List<byte[]> chunks = null;
    try {
      chunks = stdin == null ? null : StdinText.readAll(stdin, Protocol.MAX_LINE_BYTES);
      if (stdin == null) error = CLOSED;
      else if (chunks == null || StdinText.frameLength(chunks) > Protocol.MAX_LINE_BYTES) error = TOO_LARGE;
    } catch (IOException e) {
      error = "cannot read standard input: " + e.getMessage();
    }
    try {
      if (error != null) writer.send(new Frame.Stdin(null, error));
      else StdinText.write(channel, chunks);
    } catch (IOException e) {
      throw closedEarly(daemonLog);
    }
  }

  /**
   * Writes stdout text. Stdout closed by its reader (EPIPE: {@code gq ps | head}) ends the client
   * quietly with 141, as SIGPIPE ends other tools; any other failure to write stdout (a full disk,
   * an I/O error) ends it with 1 and the reason on stderr.
   */
  private void writeStdout(String text) throws ClientFailure {
    writeStdout(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes stdout bytes exactly as they came (a job's log), as {@link #writeStdout(String)}. */
  private void writeStdout(byte[] bytes) throws ClientFailure {
    stdoutBytes += bytes.length;
    int skip = (int) Math.min(bytes.length, Math.max(0, skipStdout));
    skipStdout -= skip;
    if (skip == bytes.length) return;
    try {
      out.write(bytes, skip, bytes.length - skip);
      out.flush();
    } catch (IOException e) {
      throw stdoutFailed(e);
    }
  }

  static ClientFailure stdoutFailed(IOException e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (why.contains("Broken pipe")) return new ClientFailure(null, CLOSED_PIPE);
    return new ClientFailure("cannot write to standard output: " + why, 1);
  }

  /** A failing stderr has nowhere to be reported. */
  private void writeStderr(String text) {
    try {
      err.write(text.getBytes(StandardCharsets.UTF_8));
      err.flush();
    } catch (IOException ignored) {
      // nowhere left to say it
    }
  }

  void close() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // the process ends right after
    }
  }
}

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
 * and stdin requests from standard input, and returns the exit frame's code. Whatever goes wrong on the way is a {@link Failure} that
 * points at the daemon log.
 */
final class FrameLoop {
  static final String TOO_LARGE = "standard input is larger than 16 MiB; split the input into several parts";
  private final ByteChannel channel;
  private final LineReader reader;
  private final LineWriter writer;
  private final OutputStream out;
  private final OutputStream err;
  private final Terminal terminal;
  private final Path daemonLog;
  private final InputStream stdin;

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

  /** Sends {@code requestJson} (never again) and plays the frames until the exit frame. */
  int run(String requestJson) throws Failure {
    try {
      writer.write(requestJson);
    } catch (IOException e) {
      // the daemon may have refused the request and closed: its frames say why
    }
    while (true) {
      Frame f = next();
      if (f instanceof Frame.Out o) write(out, o.text(), true);
      else if (f instanceof Frame.OutBytes b) write(out, b.bytes(), true);
      else if (f instanceof Frame.Err e) write(err, e.text(), false);
      else if (f instanceof Frame.Prompt p) answer(p.question());
      else if (f instanceof Frame.StdinRequest) sendStdin();
      else if (f instanceof Frame.Exit x) return x.code();
      // pong and frame types of later versions: nothing to do
    }
  }

  /** Sends one line; the connection already closed is a failure. */
  void send(String json) throws Failure {
    try {
      writer.write(json);
    } catch (IOException e) {
      throw closedEarly(daemonLog);
    }
  }

  /** The next frame; the connection closing first is a failure. */
  Frame next() throws Failure {
    String line;
    try {
      line = reader.readLine();
    } catch (LineTooLongException e) {
      throw new Failure("the daemon sent a frame larger than "
          + LineTooLongException.describe(e.maxBytes()) + "; see " + daemonLog);
    } catch (IOException e) {
      line = null;
    }
    if (line == null) throw closedEarly(daemonLog);
    try {
      return Frame.decode(line);
    } catch (ProtocolException e) {
      throw new Failure("the daemon sent an " + e.getMessage() + "; see " + daemonLog);
    }
  }

  static Failure closedEarly(Path daemonLog) {
    return new Failure("the daemon closed the connection before answering; see " + daemonLog);
  }

  private void answer(String question) throws Failure {
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
  private void sendStdin() throws Failure {
    String error = null;
    List<byte[]> chunks = null;
    try {
      chunks = stdin == null ? null : StdinText.readAll(stdin, Protocol.MAX_LINE_BYTES);
      if (stdin == null) error = "this client has no standard input to send";
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

  /** Writes text; stdout gone (a closed pipe) ends the client quietly, like SIGPIPE would. */
  private static void write(OutputStream stream, String text, boolean isStdout) throws Failure {
    write(stream, text.getBytes(StandardCharsets.UTF_8), isStdout);
  }

  /** Writes bytes exactly as they came (a job's log); a closed stdout ends the client as above. */
  private static void write(OutputStream stream, byte[] bytes, boolean isStdout) throws Failure {
    try {
      stream.write(bytes);
      stream.flush();
    } catch (IOException e) {
      if (isStdout) throw new Failure(null, 141);
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

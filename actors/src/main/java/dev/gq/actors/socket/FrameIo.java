package dev.gq.actors.socket;

import dev.gq.cli.Io;
import dev.gq.cli.RefusedException;
import dev.gq.cli.ScreenInput;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineTooLongException;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The client's terminal as the command tree sees it: text written to out/err becomes frames on
 * flush, bytes written to {@link #rawOut()} become {@code outb} frames as they are, a prompt and a request for standard input are frames answered by the client, and
 * {@link #closed()} turns true once a write (a keepalive after a silent second) fails because the
 * client went away, and for a stream ({@link #beginStream()}) as soon as the client has closed its
 * end, which it checks without waiting at every call: a stream reads nothing more from its client.
 */
final class FrameIo implements Io {
  /** A command's way into the streams' budget: whether there was room, and the line to refuse it with. */
  interface StreamRoom {
    boolean enter();

    String busy();
  }

  private final ClientRequest.Run req;
  private final SocketChannel channel;
  private final StreamRoom room;
  /** The daemon's budget for what requests hold at once. */
  private final RequestMemory memory;
  private final LineWriter writer;
  private final LineReader reader;
  private final PrintWriter out;
  private final PrintWriter err;
  private final OutputStream rawOut;
  private static final long KEEPALIVE_NANOS = 1_000_000_000L;
  private volatile boolean closed;
  private volatile long lastSent = System.nanoTime();
  private volatile boolean streaming;
  /** Whether the client streams its standard input ({@link #streamStdin}): then its bytes are read there, never probed. */
  private volatile boolean stdinStreamed;
  /** What the client sends in full screen, read by a thread of its own; null until {@link #enterScreen}. */
  private volatile BlockingQueue<ScreenInput> inputs;
  /** Where a stream's look for the end of its client's input reads (what it reads is dropped). */
  private final ByteBuffer probe = ByteBuffer.allocate(256);

  FrameIo(ClientRequest.Run req, SocketChannel channel, StreamRoom room, LineWriter writer, LineReader reader) {
    this(req, channel, room, writer, reader, RequestMemory.UNBOUNDED);
  }

  FrameIo(ClientRequest.Run req, SocketChannel channel, StreamRoom room, LineWriter writer, LineReader reader,
      RequestMemory memory) {
    this.req = req;
    this.memory = memory;
    this.channel = channel;
    this.room = room;
    this.writer = writer;
    this.reader = reader;
    this.out = new PrintWriter(new FrameStreams.Text(this::send, false), false);
    this.err = new PrintWriter(new FrameStreams.Text(this::send, true), false);
    this.rawOut = new FrameStreams.Bytes(this::send, out::flush);
  }

  synchronized void send(Frame f) {
    if (closed) return;
    try {
      writer.send(f);
      lastSent = System.nanoTime();
      if (!(f instanceof Frame.Keepalive)) ClientActivity.sent();
    } catch (IOException e) {
      closed = true;
    }
  }

  @Override public PrintWriter out() { return out; }
  @Override public PrintWriter err() { return err; }
  @Override public OutputStream rawOut() { return rawOut; }
  @Override public boolean stdinTty() { return req.stdinTty(); }
  @Override public boolean stdoutTty() { return req.stdoutTty(); }
  @Override public boolean stderrTty() { return req.stderrTty(); }
  @Override public int width() { return req.width(); }
  @Override public int height() { return req.stdoutTty() ? req.height() : 0; }
  @Override public Path cwd() { return Path.of(req.cwd()); }
  @Override public Map<String, String> env() { return req.env(); }
  @Override public RequestMemory memory() { return memory; }
  /**
   * Whether the client has gone. A command that writes nothing for a while would never learn it
   * from a failed write, so after a second of silence this sends a keepalive frame to find out.
   */
  @Override
  public boolean closed() {
    if (!closed && streaming && inputs == null && !stdinStreamed) closed = peerClosed();
    if (!closed && System.nanoTime() - lastSent > KEEPALIVE_NANOS) send(new Frame.Keepalive());
    return closed;
  }

  @Override
  public void beginStream() {
    if (streaming) return;
    if (!room.enter()) throw new RefusedException(room.busy());
    streaming = true;
  }

  @Override
  public boolean screen() {
    return req.screen() && req.stdinTty() && req.stdoutTty();
  }

  /**
   * Tells the client to show its full screen and from here reads what it sends (keys and sizes) on a
   * thread of its own, so that the command waits for them with a timeout ({@link #nextInput}); the
   * end of the client's side is {@link ScreenInput.Gone}. Counts as a stream.
   */
  @Override
  public void enterScreen() {
    if (inputs != null) return;
    if (!screen()) throw new RefusedException("this client cannot show a full screen");
    if (!streaming && !room.enter()) throw new RefusedException(room.busy());
    var queue = new LinkedBlockingQueue<ScreenInput>();
    inputs = queue;
    streaming = true;
    send(new Frame.Screen());
    Thread.ofPlatform().name("gq-screen-input").daemon(true).start(() -> readInputs(queue));
  }

  private void readInputs(BlockingQueue<ScreenInput> queue) {
    try {
      String line;
      while ((line = reader.readLine()) != null) {
        Frame f = Frame.decode(line);
        if (f instanceof Frame.Key k) queue.add(new ScreenInput.Typed(k.text()));
        else if (f instanceof Frame.Size z) queue.add(new ScreenInput.Resized(z.width(), z.height()));
      }
    } catch (IOException | RuntimeException e) {
      // a broken or invalid line ends the screen as the end of the connection does
    } finally {
      closed = true;
      queue.add(new ScreenInput.Gone());
    }
  }

  @Override
  public Optional<ScreenInput> nextInput(Duration timeout) throws InterruptedException {
    var queue = inputs;
    if (queue == null) return Optional.of(new ScreenInput.Gone());
    ScreenInput in = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (in instanceof ScreenInput.Gone) queue.add(in); // said again to every later call
    return Optional.ofNullable(in);
  }

  /**
   * Whether the client has closed its end (it exited, or was killed): a read that does not wait
   * sees the end of the stream at once. What a client sends while a stream runs is not read.
   */
  private synchronized boolean peerClosed() {
    try {
      channel.configureBlocking(false);
      try {
        probe.clear();
        return channel.read(probe) < 0;
      } finally {
        channel.configureBlocking(true);
      }
    } catch (IOException e) {
      return true;
    }
  }

  /** Tells the client to stream its standard input, when its request said it can ({@link StreamedStdin}). */
  @Override
  public InputStream streamStdin() {
    if (!req.stdinStream()) return Io.super.streamStdin();
    beginStream();
    stdinStreamed = true;
    out.flush();
    err.flush();
    send(new Frame.StdinStream());
    return new StreamedStdin(reader, () -> closed = true);
  }

  @Override
  public Optional<String> readStdin() {
    if (closed) return Optional.empty();
    out.flush();
    err.flush();
    send(new Frame.StdinRequest());
    try {
      String line = reader.readLine();
      if (line == null) {
        closed = true;
        return Optional.empty();
      }
      if (!(Frame.decode(line) instanceof Frame.Stdin in)) throw new RefusedException("the client did not send its standard input");
      if (in.text() == null) throw new RefusedException(in.error() == null ? "the client sent no standard input" : in.error());
      return Optional.of(in.text());
    } catch (LineTooLongException e) {
      closed = true;
      throw new RefusedException("standard input is larger than 16 MiB; split the input into several parts");
    } catch (FrameBudget.Busy e) {
      closed = true;
      throw new RefusedException(e.getMessage());
    } catch (ProtocolException e) {
      throw new RefusedException("standard input is not UTF-8 text; convert it (iconv -t UTF-8) and try again");
    } catch (IOException e) {
      closed = true;
      return Optional.empty();
    }
  }

  @Override
  public Optional<String> prompt(String question) {
    if (!req.stdinTty() || closed) return Optional.empty();
    out.flush();
    err.flush();
    send(new Frame.Prompt(question));
    try {
      String line = reader.readLine();
      if (line == null) {
        closed = true;
        return Optional.empty();
      }
      Frame f = Frame.decode(line);
      return f instanceof Frame.Answer a ? Optional.ofNullable(a.line()) : Optional.empty();
    } catch (IOException e) {
      closed = true;
      return Optional.empty();
    }
  }
}

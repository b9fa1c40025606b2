package dev.gq.actors.e2e;

import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * One client connection that speaks the protocol itself, as the native client does, for requests
 * the test shapes by hand: a terminal of any size, a full screen, standard input streamed in
 * {@code inb} frames. Keeps what came back.
 */
final class RawClient implements AutoCloseable {
  /** What came back: stdout text, stderr text, whether a full screen began, and the exit code (null: none came). */
  record Reply(String out, String err, boolean screen, Integer code) {}

  private final SocketChannel channel;
  private final LineWriter writer;

  private RawClient(SocketChannel channel) {
    this.channel = channel;
    this.writer = new LineWriter(channel);
  }

  /** Connects to {@code g}'s daemon and sends {@code argv} from a terminal of {@code width} x {@code height}. */
  static RawClient run(Gqd g, List<String> argv, boolean tty, int width, int height, boolean stdinStream) throws IOException {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
    RawClient client = new RawClient(c);
    var req = new ClientRequest.Run(UUID.randomUUID().toString(), argv, g.work.toString(), g.env(), tty, tty, tty, width, height,
        tty, stdinStream);
    client.writer.write(req.toJson());
    return client;
  }

  /** Streams {@code bytes} as the client's standard input, then its end. */
  void stdin(byte[] bytes) throws IOException {
    for (int at = 0; at < bytes.length; at += Frame.InBytes.MAX_BYTES)
      writer.send(new Frame.InBytes(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + Frame.InBytes.MAX_BYTES))));
    writer.send(new Frame.StdinEnd());
  }

  /** Reads frames until the exit frame, the end of the connection, or (when {@code screenIsEnough}) the first screen's text. */
  Reply read(boolean screenIsEnough) throws IOException {
    LineReader r = new LineReader(channel, 64 << 20);
    StringBuilder out = new StringBuilder(), err = new StringBuilder();
    boolean screen = false;
    for (String line; (line = r.readLine()) != null; ) {
      switch (Frame.decode(line)) {
        case Frame.Out o -> out.append(o.text());
        case Frame.Err e -> err.append(e.text());
        case Frame.Screen s -> screen = true;
        case Frame.Exit x -> {
          return new Reply(out.toString(), err.toString(), screen, x.code());
        }
        default -> { }
      }
      if (screenIsEnough && screen && !out.isEmpty()) break;
    }
    return new Reply(out.toString(), err.toString(), screen, null);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}

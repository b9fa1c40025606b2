package dev.gq.actors.e2e;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.UUID;

/**
 * gq commands sent to a daemon that may be killed at any moment, as {@link Gqd#gq} sends them but
 * without throwing: the caller learns whether the request reached the daemon and whether an answer
 * came back, which is what it needs to know to decide whether the command may be sent again.
 */
final class ChaosClient {
  private ChaosClient() {}

  /**
   * One request: {@code sent} is false when the connect failed (nothing reached the daemon);
   * {@code result} is null when it was sent but no exit frame came back (the daemon died while
   * answering, so the command may or may not have taken effect).
   */
  record Attempt(boolean sent, Gqd.Result result) {}

  static Attempt send(Gqd g, String... argv) {
    SocketChannel c;
    try {
      c = SocketChannel.open(StandardProtocolFamily.UNIX);
      c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
    } catch (IOException e) {
      return new Attempt(false, null);
    }
    try (c) {
      var req = new ClientRequest.Run(UUID.randomUUID().toString(), List.of(argv), g.work.toString(), g.env(), false, false, false, 200);
      new LineWriter(c).write(req.toJson());
      LineReader r = new LineReader(c);
      StringBuilder out = new StringBuilder(), err = new StringBuilder();
      for (String line; (line = r.readLine()) != null; ) {
        switch (Frame.decode(line)) {
          case Frame.Out o -> out.append(o.text());
          case Frame.OutBytes b -> out.append(new String(b.bytes(), java.nio.charset.StandardCharsets.UTF_8));
          case Frame.Err e -> err.append(e.text());
          case Frame.Exit x -> { return new Attempt(true, Gqd.Result.checked(argv, x.code(), out.toString(), err.toString())); }
          default -> { }
        }
      }
      return new Attempt(true, null);
    } catch (IOException | RuntimeException e) {
      return new Attempt(true, null);
    }
  }
}

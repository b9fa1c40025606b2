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

/** Runs one gq command whose standard input is {@code stdin}, answering the daemon's stdin request as the client does. */
final class StdinGq {
  private StdinGq() {}

  static Gqd.Result run(Gqd g, String stdin, String... argv) throws IOException {
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
      LineWriter w = new LineWriter(c);
      w.write(new ClientRequest.Run(UUID.randomUUID().toString(), List.of(argv), g.work.toString(), g.env(), false, false, false, 200)
          .toJson());
      LineReader r = new LineReader(c);
      StringBuilder out = new StringBuilder(), err = new StringBuilder();
      for (String line; (line = r.readLine()) != null; ) {
        switch (Frame.decode(line)) {
          case Frame.Out o -> out.append(o.text());
          case Frame.OutBytes b -> out.append(new String(b.bytes(), java.nio.charset.StandardCharsets.UTF_8));
          case Frame.Err e -> err.append(e.text());
          case Frame.StdinRequest s -> w.send(new Frame.Stdin(stdin, null));
          case Frame.Exit x -> { return Gqd.Result.checked(argv, x.code(), out.toString(), err.toString()); }
          default -> { }
        }
      }
      throw new AssertionError("no exit frame; out=" + out + " err=" + err);
    }
  }
}

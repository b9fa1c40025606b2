package dev.gq.client;

import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A daemon stand-in inside the test JVM: accepts connections and lets a script answer them. */
final class FakeDaemon implements AutoCloseable {

  /** Answers one connection whose request line has been decoded. */
  interface Script {
    void serve(ClientRequest request, LineReader in, LineWriter out) throws Exception;
  }

  final List<ClientRequest> requests = new CopyOnWriteArrayList<>();
  private final Path socket;
  private final ServerSocketChannel server;
  private final Thread acceptor;

  FakeDaemon(Path socket, Script script) throws IOException {
    this.socket = socket;
    Files.createDirectories(socket.getParent());
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    acceptor = new Thread(() -> acceptLoop(script), "fake-daemon");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Each connection is served on a thread of its own, as the daemon does (a ping beside a stream). */
  private void acceptLoop(Script script) {
    while (server.isOpen()) {
      try {
        SocketChannel ch = server.accept();
        Thread t = new Thread(() -> serve(ch, script), "fake-daemon-client");
        t.setDaemon(true);
        t.start();
      } catch (Exception e) {
        if (!server.isOpen()) return;
      }
    }
  }

  private void serve(SocketChannel channel, Script script) {
    try (SocketChannel ch = channel) {
      LineReader in = new LineReader(ch);
      String line = in.readLine();
      if (line == null) return; // a probe: connected and closed
      ClientRequest request = ClientRequest.decode(line);
      requests.add(request);
      script.serve(request, in, new LineWriter(ch, Integer.MAX_VALUE));
    } catch (Exception e) {
      // the client went away, or the script ended the connection
    }
  }

  /** Stops accepting and removes the socket file, as a daemon does when it stops. */
  /** Goes away as the daemon does: the socket file first, so that once connections are refused it is gone. */
  @Override public void close() throws IOException {
    Files.deleteIfExists(socket);
    server.close();
  }
}

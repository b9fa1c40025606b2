package dev.gq.client;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.ByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A training run for the client's AOT cache (made by install.sh on JDK 25+): plays a few
 * invocations against a stand-in daemon inside this JVM, so that the cache holds the classes a
 * real run loads. Never used by a normal {@code gq} run.
 */
public final class ClientCacheTraining {
  private ClientCacheTraining() {}

  public static void main(String[] args) throws Exception {
    // not Files.createTempDirectory: its random names would set up SecureRandom, which a real run
    // never does (with the socket library), and the cache would carry those classes for nothing
    Path dir = Path.of(System.getProperty("java.io.tmpdir"),
        "gq-aot-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    Files.createDirectory(dir);
    Path socket = dir.resolve("gq.sock");
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("GQ_DATA_DIR", dir.toString());
    env.put("GQ_RUNTIME_DIR", dir.toString());
    env.put(ClientCall.TTY_IN, "1");
    env.put(ClientCall.TTY_OUT, "0");
    env.put(ClientCall.TTY_ERR, "0");
    OutputStream sink = OutputStream.nullOutputStream();
    RawCommandLine.ofThisProcess(new String[0], System.getenv()).workingDirectory("/"); // as Main.main does
    try {
      Main main = new Main(env, "/", new ByteArrayInputStream("y\n".getBytes()), sink, sink, "/dev/null");
      main.run(new String[] {"daemon", "status"});
      try (Listener server = Listener.open(socket)) {
        Thread daemon = new Thread(new Runnable() {
          @Override public void run() {
            serve(server);
          }
        });
        daemon.setDaemon(true);
        daemon.start();
        main.run(new String[] {"ps"});
        main.run(new String[] {"daemon", "start"});
      }
    } finally {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(dir);
    }
  }

  private static void serve(Listener server) {
    while (true) {
      try (ByteChannel ch = server.accept()) {
        LineReader in = new LineReader(ch);
        LineWriter out = new LineWriter(ch);
        if (ClientRequest.decode(in.readLine()) instanceof ClientRequest.Ping) {
          out.send(Frame.pong(ProcessHandle.current().pid(), "training"));
          continue;
        }
        out.send(Frame.out("JOB  STATE\n"));
        out.send(Frame.err("note\n"));
        out.send(Frame.prompt("Sure? [y/N] "));
        Frame.decode(in.readLine());
        out.send(Frame.exit(0));
      } catch (IOException | RuntimeException e) {
        return;
      }
    }
  }

  /** The stand-in daemon's listening socket: the same kind of socket the client connects with. */
  private interface Listener extends AutoCloseable {
    ByteChannel accept() throws IOException;

    @Override
    void close() throws IOException;

    static Listener open(Path socket) throws IOException {
      if (NativeSocket.available()) {
        NativeSocket s = NativeSocket.listen(socket.toString());
        return new Listener() {
          @Override public ByteChannel accept() throws IOException {
            return s.accept();
          }

          @Override public void close() throws IOException {
            s.close();
          }
        };
      }
      ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      s.bind(UnixDomainSocketAddress.of(socket));
      return new Listener() {
        @Override public ByteChannel accept() throws IOException {
          return s.accept();
        }

        @Override public void close() throws IOException {
          s.close();
        }
      };
    }
  }
}

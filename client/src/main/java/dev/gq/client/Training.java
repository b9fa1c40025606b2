package dev.gq.client;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.Request;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A training run for the client's AOT cache (made by install.sh on JDK 25+): plays a few
 * invocations against a stand-in daemon inside this JVM, so that the cache holds the classes a
 * real run loads. Never used by a normal {@code gq} run.
 */
public final class Training {
  private Training() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("gq-aot");
    Path socket = dir.resolve("gq.sock");
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("GQ_DATA_DIR", dir.toString());
    env.put("GQ_RUNTIME_DIR", dir.toString());
    env.put(Invocation.TTY_IN, "1");
    env.put(Invocation.TTY_OUT, "0");
    env.put(Invocation.TTY_ERR, "0");
    OutputStream sink = OutputStream.nullOutputStream();
    try {
      Main main = new Main(env, "/", new ByteArrayInputStream("y\n".getBytes()), sink, sink, "/dev/null");
      main.run(new String[] {"daemon", "status"});
      try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
        server.bind(UnixDomainSocketAddress.of(socket));
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

  private static void serve(ServerSocketChannel server) {
    while (server.isOpen()) {
      try (SocketChannel ch = server.accept()) {
        LineReader in = new LineReader(ch);
        LineWriter out = new LineWriter(ch);
        if (Request.decode(in.readLine()) instanceof Request.Ping) {
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
}

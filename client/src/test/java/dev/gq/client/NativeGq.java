package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The native client (target/gq, built from src/main/c/gq by this module's build) as a process on
 * temp directories, with its streams captured; and a raw stand-in daemon that answers with bytes
 * as they are, for the frames no daemon should send.
 */
final class NativeGq {
  static final Path BINARY = Path.of("target/gq").toAbsolutePath();

  final Map<String, String> env = new HashMap<>();
  final Path home;
  final Path data;
  final Path runtime;
  final Path work;
  /** Words run before the client (e.g. setpriv to run it as another user). */
  List<String> wrapper = List.of();

  record Result(int code, byte[] outBytes, String err) {
    String out() {
      return new String(outBytes, StandardCharsets.UTF_8);
    }
  }

  NativeGq(Path dir) throws IOException {
    assertTrue(Files.isExecutable(BINARY), BINARY + " is not built (the client module's compile phase builds it)");
    home = dir;
    data = dir.resolve("data");
    runtime = dir.resolve("run");
    work = Files.createDirectories(dir.resolve("work"));
    env.put("PATH", "/usr/bin:/bin");
    env.put("HOME", dir.toString());
    env.put("GQ_DATA_DIR", data.toString());
    env.put("GQ_RUNTIME_DIR", runtime.toString());
  }

  Path socket() {
    return runtime.resolve("gq.sock");
  }

  Path log() {
    return data.resolve("gq-daemon.log");
  }

  ProcessBuilder builder(String... args) {
    List<String> cmd = new ArrayList<>(wrapper);
    cmd.add(BINARY.toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb;
  }

  Result run(byte[] stdin, String... args) throws Exception {
    return finish(builder(args).start(), stdin);
  }

  Result run(String... args) throws Exception {
    return run(new byte[0], args);
  }

  /**
   * Runs the client with empty standard input and its output in files, so that a client that hangs
   * fails the test (and is killed) after {@code seconds} instead of holding it.
   */
  Result runWithin(long seconds, String... args) throws Exception {
    Path out = Files.createTempFile(home, "out", "");
    Path err = Files.createTempFile(home, "err", "");
    Process p = builder(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    p.getOutputStream().close();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      fail("the client still ran after " + seconds + " s; it said: " + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readAllBytes(out), Files.readString(err));
  }

  static Result finish(Process p, byte[] stdin) throws Exception {
    Thread feeder = new Thread(() -> {
      try (var in = p.getOutputStream()) {
        in.write(stdin);
      } catch (IOException e) {
        // the client did not read it all
      }
    });
    feeder.start();
    byte[][] err = new byte[1][];
    Thread errReader = new Thread(() -> err[0] = readAll(p.getErrorStream()));
    errReader.start();
    byte[] out = readAll(p.getInputStream());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client ends");
    errReader.join();
    feeder.join();
    return new Result(p.exitValue(), out, new String(err[0], StandardCharsets.UTF_8));
  }

  static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  /**
   * A listener on {@code socket} for one connection: reads the first line (or to the end when
   * {@code reply} is null) and answers with {@code reply} as it is, then closes. {@link #received}
   * is what the client sent.
   */
  static final class RawDaemon implements AutoCloseable {
    private final ServerSocketChannel server;
    private final Thread thread;
    private final byte[] reply;
    volatile byte[] received;

    RawDaemon(Path socket, byte[] reply) throws IOException {
      Files.createDirectories(socket.getParent());
      this.reply = reply;
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
      thread = new Thread(this::serve, "raw-daemon");
      thread.setDaemon(true);
      thread.start();
    }

    private void serve() {
      try (SocketChannel ch = server.accept()) {
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(65536);
        while (ch.read(b) > 0) {
          got.write(b.array(), 0, b.position());
          b.clear();
          if (reply != null && got.toString(StandardCharsets.UTF_8).contains("\n")) break;
        }
        received = got.toByteArray();
        if (reply != null) ch.write(ByteBuffer.wrap(reply));
      } catch (IOException e) {
        received = new byte[0];
      }
    }

    /** Waits until the connection was served. */
    byte[] awaitReceived() throws InterruptedException {
      thread.join(30_000);
      return received;
    }

    @Override public void close() throws IOException {
      server.close();
    }
  }

  /**
   * A listener that never answers: one that takes no connection at all (they wait in its queue of
   * {@code backlog}, as for a stopped daemon), or one that takes each and never reads from it.
   */
  static final class MuteDaemon implements AutoCloseable {
    private final Path socket;
    private final ServerSocketChannel server;
    final List<SocketChannel> taken = new CopyOnWriteArrayList<>();

    MuteDaemon(Path socket, int backlog, boolean accepts) throws IOException {
      this.socket = socket;
      Files.createDirectories(socket.getParent());
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket), backlog);
      if (!accepts) return;
      Thread t = new Thread(() -> {
        try {
          while (true) taken.add(server.accept());
        } catch (IOException e) {
          // closed
        }
      }, "mute-daemon");
      t.setDaemon(true);
      t.start();
    }

    @Override public void close() throws IOException {
      Files.deleteIfExists(socket);
      server.close();
      for (SocketChannel ch : taken) ch.close();
    }
  }
}

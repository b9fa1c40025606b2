package dev.gq.actors.daemon;

import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The training run for the daemon's AOT cache ({@code bin/gq-daemon --train}, install.sh; JDK
 * 25+): runs the real daemon twice in this JVM on temporary directories with two fake GPUs, first
 * on a new database with a few jobs run through it and enough events for a snapshot, then again
 * to recover from that snapshot, so the cache
 * holds the classes a real start-up and the usual requests load (Pekko, persistence, Slick,
 * Jackson, SQLite, picocli). Never part of a normal daemon run; exits 0 when both runs went well.
 */
public final class DaemonCacheTraining {
  private static final List<List<String>> FIRST = List.of(
      List.of("daemon", "status"),
      List.of("submit", "-g", "0", "--name", "one", "--", "true"),
      List.of("submit", "-g", "1", "--group", "train", "--", "sh", "-c", "exit 3"),
      List.of("submit", "-g", "0", "--batch", "jobs.txt"),
      List.of("wait", "--timeout", "60s", "1-5"),
      List.of("ps"),
      List.of("ps", "--all", "--json"),
      List.of("gpu"),
      List.of("top"),
      List.of("show", "2"),
      List.of("logs", "1"),
      List.of("groups"),
      List.of("events"),
      // over 500 events: the Scheduler stores a snapshot, which the second run starts from
      List.of("hold", "--all"),
      List.of("submit", "-g", "0", "--batch", "many.txt"),
      List.of("cancel", "--waiting", "6-305"),
      List.of("release", "--all"));
  private static final List<List<String>> SECOND = List.of(
      List.of("daemon", "status"),
      List.of("ps", "--all"),
      List.of("gpu", "--json"));

  private DaemonCacheTraining() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("gq-train");
    int failures;
    try {
      Map<String, String> env = environment(dir);
      Files.writeString(dir.resolve("jobs.txt"), "true\necho trained\n");
      Files.writeString(dir.resolve("many.txt"), "true\n".repeat(300));
      failures = session(env, dir, FIRST) + session(env, dir, SECOND);
    } finally {
      deleteTree(dir);
    }
    System.exit(failures == 0 ? 0 : 1);
  }

  private static Map<String, String> environment(Path dir) throws IOException {
    Path fake = dir.resolve("fake");
    Files.createDirectories(fake.resolve("procs/GPU-train-0"));
    Files.createDirectories(fake.resolve("procs/GPU-train-1"));
    Files.writeString(fake.resolve("gpus"), "0 GPU-train-0 81920 DaemonCacheTraining GPU\n1 GPU-train-1 81920 DaemonCacheTraining GPU\n");
    return Map.of(
        "GQ_DATA_DIR", dir.resolve("data").toString(),
        "GQ_RUNTIME_DIR", dir.resolve("run").toString(),
        "GQ_FAKE_NVML", fake.toString(),
        "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
        "HOME", dir.toString());
  }

  /** Starts the daemon, sends it each command line, stops it; returns how many requests failed. */
  private static int session(Map<String, String> env, Path cwd, List<List<String>> commands) throws Exception {
    AtomicInteger status = new AtomicInteger(-1);
    Thread daemon = new Thread(() -> {
      try {
        status.set(DaemonMain.run(env, System.getProperty("gq.shim")));
      } catch (Startup e) {
        System.err.println("gq daemon: " + e.getMessage());
      }
    }, "gq-training-daemon");
    daemon.start();
    Path socket = Path.of(env.get("GQ_RUNTIME_DIR"), "gq.sock");
    int failures = awaitSocket(socket, daemon) ? 0 : 1;
    if (failures == 0) {
      for (List<String> argv : commands) failures += send(socket, env, cwd, argv) < 0 ? 1 : 0;
      send(socket, env, cwd, List.of("daemon", "stop"));
    }
    daemon.join(60_000);
    return failures + (status.get() == 0 ? 0 : 1);
  }

  private static boolean awaitSocket(Path socket, Thread daemon) throws InterruptedException {
    for (long end = System.nanoTime() + 120_000_000_000L; System.nanoTime() < end && daemon.isAlive(); ) {
      try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        ch.connect(UnixDomainSocketAddress.of(socket));
        new LineWriter(ch).write(new ClientRequest.Ping().toJson());
        if (Frame.decode(new LineReader(ch).readLine()) instanceof Frame.Pong) return true;
      } catch (IOException | RuntimeException notYet) {
        Thread.sleep(50);
      }
    }
    return false;
  }

  /** Runs one command line as the gq client would; returns its exit code, or -1 when the exchange failed. */
  private static int send(Path socket, Map<String, String> env, Path cwd, List<String> argv) {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(socket));
      LineReader in = new LineReader(ch);
      LineWriter out = new LineWriter(ch);
      out.write(new ClientRequest.Run(UUID.randomUUID().toString(), argv, cwd.toString(), env, false, false, false, 100).toJson());
      for (String line; (line = in.readLine()) != null; ) {
        switch (Frame.decode(line)) {
          case Frame.Exit e -> {
            return e.code();
          }
          case Frame.Prompt p -> out.send(new Frame.Answer("n"));
          case Frame.StdinRequest r -> out.send(new Frame.Stdin("", null));
          default -> { }
        }
      }
      return -1;
    } catch (IOException | RuntimeException e) {
      System.err.println("training request " + argv + " failed: " + e);
      return -1;
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}

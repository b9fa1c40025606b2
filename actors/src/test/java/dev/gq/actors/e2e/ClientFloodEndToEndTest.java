package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon with few file descriptors and many clients holding connections: the extra clients get
 * one line and exit 1, the daemon neither spins nor floods its log, and it answers again once
 * the connections are released. Started as a client starts it: output appended to its log.
 * Followers ({@code logs -f}) have a room of their own that leaves short commands theirs.
 */
class ClientFloodEndToEndTest {
  /** Room for what the daemon opens itself (about 135 descriptors, most of them jars) and a few clients. */
  private static final int FDS = 200;
  private static final int HELD = 300;
  @TempDir Path tmp;

  private Gqd start(Path root, Map<String, String> env) throws Exception {
    Gqd g = new Gqd(root, 1, env);
    g.wrapper = List.of("sh", "-c", "ulimit -n " + FDS + " && exec \"$@\"", "sh");
    Files.createDirectories(g.data);
    g.output = g.data.resolve("gq-daemon.log");
    g.startDaemon();
    return g;
  }

  @Test
  void clientsBeyondTheLimitAreRefusedWithOneLineAndTheDaemonAnswersAfterwards() throws Exception {
    try (Gqd g = start(tmp.resolve("cap"), Map.of())) {
      Matcher m = Pattern.compile("serving at most (\\d+) clients at once \\(open-file limit " + FDS + "\\)").matcher(g.daemonLog());
      assertTrue(m.find(), g.daemonLog());
      int limit = Integer.parseInt(m.group(1));
      assertTrue(limit < HELD / 2, "the limit leaves room under " + FDS + " descriptors: " + limit);

      var held = connect(g, HELD);
      try {
        Gqd.await("the clients beyond the limit to be refused", Duration.ofSeconds(30), () -> refused(held) >= HELD - limit);
        assertEquals(HELD - limit, refused(held));
        Gqd.Result r = within(g, "ps");
        assertEquals(1, r.code(), r.toString());
        assertEquals("gq: the daemon is already serving " + limit + " clients at once, its limit; try again when some have ended"
            + " (GQ_MAX_CLIENTS and GQ_MAX_STREAMS set the limit; the daemon may open " + FDS + " files)\n", r.err());
      } finally {
        closeAll(held);
      }
      answersAgain(g);
      assertFalse(g.daemonLog().contains("accept failed"), g.daemonLog());
    }
  }

  @Test
  void outOfDescriptorsTheDaemonRefusesWithoutSpinningOrFloodingItsLog() throws Exception {
    try (Gqd g = start(tmp.resolve("fds"), Map.of("GQ_MAX_CLIENTS", "1000"))) {
      var held = connect(g, HELD);
      try {
        Gqd.await("some clients to be refused", Duration.ofSeconds(30), () -> refused(held) > 0);
        Gqd.Result r = within(g, "ps");
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().startsWith("gq: the daemon has run out of file descriptors (it may open " + FDS + ")"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        long cpu = cpuMillis(g);
        long end = System.nanoTime() + 2_000_000_000L;
        Gqd.await("two seconds to pass", Duration.ofSeconds(3), () -> System.nanoTime() >= end);
        long spent = cpuMillis(g) - cpu;
        assertTrue(spent < 500, "the daemon used " + spent + " ms of CPU in 2 s while out of descriptors");
      } finally {
        closeAll(held);
      }
      answersAgain(g);
      String log = g.daemonLog();
      assertTrue(Files.size(g.output) < 64 * 1024, "the log is " + Files.size(g.output) + " bytes");
      assertEquals(1, log.lines().filter(l -> l.contains("accept failed")).count(), log);
    }
  }

  @Test
  void followersHaveTheirOwnRoomLeaveShortCommandsTheirsAndFreeItWhenTheyLeave() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("streams"), 1, Map.of("GQ_MAX_CLIENTS", "4", "GQ_MAX_STREAMS", "6"))) {
      long job = g.submit("-g", "0", "sleep", "300");
      g.awaitState(job, "RUNNING", Duration.ofSeconds(45));
      var followers = follow(g, job, 10);
      try {
        Gqd.await("6 followers to stream and 4 to be refused", Duration.ofSeconds(30),
            () -> count(followers, "keepalive") + count(followers, "exit") == 10);
        assertEquals(6, count(followers, "keepalive"), followers.values().toString());
        for (StringBuilder refused : followers.values()) {
          if (!refused.toString().contains("\"exit\"")) continue;
          assertTrue(refused.toString().contains("the daemon is already following 6 streams at once (logs -f, wait, events -f),"
              + " its limit; end some of them or try again later (GQ_MAX_STREAMS sets the limit"), refused.toString());
        }
        for (int i = 0; i < 8; i++) assertEquals(0, within(g, "ps").code(), "short commands keep their room while 6 follow");
      } finally {
        closeAll(followers);
      }
      // the six streams are free once their clients have gone: six new followers are served
      var next = new java.util.LinkedHashMap<SocketChannel, StringBuilder>();
      try {
        Gqd.await("six new followers to stream", Duration.ofSeconds(20), () -> {
          for (var e : List.copyOf(next.entrySet())) {
            if (!e.getValue().toString().contains("\"exit\"")) continue;
            closeQuietly(e.getKey());
            next.remove(e.getKey());
          }
          if (next.size() < 6) next.putAll(follow(g, job, 6 - next.size()));
          return count(next, "keepalive") == 6;
        });
        assertEquals(0, g.gq("cancel", "-y", String.valueOf(job)).code());
      } finally {
        closeAll(next);
      }
    }
  }

  /** {@code n} connections that each ask to follow the job's log from now on, not waiting for answers. */
  private static Map<SocketChannel, StringBuilder> follow(Gqd g, long job, int n) {
    Map<SocketChannel, StringBuilder> followers = new java.util.LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      try {
        SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
        var req = new dev.gq.protocol.ClientRequest.Run("f" + i, List.of("logs", "-f", "-n", "0", String.valueOf(job)), g.work.toString(),
            g.env(), false, false, false, 80);
        try {
          new dev.gq.protocol.LineWriter(c).write(req.toJson());
        } catch (IOException refusedAtOnce) {
          // as the client does: a daemon with no room refuses and closes as it accepts, maybe before
          // the request is written; its refusal is still there to read
        }
        c.configureBlocking(false);
        followers.put(c, new StringBuilder());
      } catch (IOException e) {
        throw new AssertionError("cannot connect a follower: " + e, e);
      }
    }
    return followers;
  }

  /** How many of the connections have been sent a frame of this type so far. */
  private static int count(Map<SocketChannel, StringBuilder> held, String type) {
    refused(held);
    int n = 0;
    for (StringBuilder b : held.values()) if (b.toString().contains("\"" + type + "\"")) n++;
    return n;
  }

  private static void closeQuietly(SocketChannel c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // gone already
    }
  }

  /** Waits until the daemon serves `daemon status` and `ps` again, as the released clients' threads end. */
  private static void answersAgain(Gqd g) throws InterruptedException {
    Gqd.await("the daemon to answer again", Duration.ofSeconds(20), () -> within(g, "daemon", "status").code() == 0);
    assertEquals(0, within(g, "ps").code());
  }

  /** One request, which must be answered within ten seconds. */
  private static Gqd.Result within(Gqd g, String... argv) {
    try {
      return java.util.concurrent.CompletableFuture.supplyAsync(() -> g.gq(argv)).get(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("gq " + String.join(" ", argv) + " got no answer in 10 s: " + e + "\n" + g.daemonLog(), e);
    }
  }

  private static Map<SocketChannel, StringBuilder> connect(Gqd g, int n) throws IOException {
    Map<SocketChannel, StringBuilder> held = new java.util.LinkedHashMap<>();
    // setting up, not the check: a loaded machine may take a while to refuse the clients past its descriptors
    long deadline = System.nanoTime() + 60_000_000_000L;
    for (int i = 0; i < n; i++) {
      SocketChannel c;
      // without blocking: a daemon that stops accepting fills its backlog, and a blocking connect would wait forever
      while ((c = connected(g)) == null) {
        if (System.nanoTime() > deadline)
          throw new AssertionError("the daemon accepted only " + i + " of " + n + " connections in 60 s; its log:\n" + g.daemonLog());
        Thread.onSpinWait();
      }
      held.put(c, new StringBuilder());
    }
    return held;
  }

  /** A new connection, or null when the daemon's backlog is full. */
  private static SocketChannel connected(Gqd g) throws IOException {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    c.configureBlocking(false);
    try {
      if (c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")))) return c;
    } catch (IOException full) {
      // the backlog is full
    }
    c.close();
    return null;
  }

  /** How many of the connections have been given a refusal (an error frame, then exit 1) so far. */
  private static int refused(Map<SocketChannel, StringBuilder> held) {
    int n = 0;
    for (var e : held.entrySet()) {
      ByteBuffer b = ByteBuffer.allocate(4096);
      try {
        e.getKey().read(b);
      } catch (IOException gone) {
        // read what came before the reset already
      }
      e.getValue().append(new String(b.array(), 0, b.position(), StandardCharsets.UTF_8));
      if (e.getValue().toString().contains("\"exit\"")) n++;
    }
    return n;
  }

  private static void closeAll(Map<SocketChannel, StringBuilder> held) throws IOException {
    for (SocketChannel c : held.keySet()) c.close();
  }

  /** The daemon's CPU time (user + system) from /proc. */
  private static long cpuMillis(Gqd g) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(g.process().pid()), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
  }
}

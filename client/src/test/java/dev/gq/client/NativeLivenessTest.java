package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.Frame;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon that no longer answers (stopped, hung) ends the native client with one line after
 * GQ_ANSWER_TIMEOUT, whether it is silent, reads nothing, or takes no connection; one that is
 * silent but answers pings (a long {@code gq wait}) is waited for. Each client here runs under a
 * limit, so that one that hangs fails its test.
 */
@Timeout(120)
class NativeLivenessTest {
  static final String HUNG = "; it may be stopped (see 'gq daemon status' and %s; 'kill -CONT PID' resumes a stopped"
      + " one); raise GQ_ANSWER_TIMEOUT (seconds) to wait longer\n";
  @TempDir Path dir;
  NativeGq gq;

  @BeforeEach
  void setUp() throws Exception {
    gq = new NativeGq(dir);
    gq.env.put("GQ_ANSWER_TIMEOUT", "2");
  }

  @Test
  void aHungDaemonEndsTheCommandWithOneLine() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> never.await())) {
      long start = System.nanoTime();
      NativeGq.Result r = gq.runWithin(30, "ps");
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon did not answer for 2 s, nor a ping on a second connection"
          + String.format(HUNG, gq.log()), r.err());
      assertTrue(millis >= 1500, "gave up after " + millis + " ms, before the timeout");
      assertTrue(d.requests.stream().anyMatch(q -> q instanceof ClientRequest.Ping), "it pinged before giving up");
    } finally {
      never.countDown();
    }
  }

  @Test
  void aHungDaemonEndsAWaitWithOneLine() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> never.await())) {
      NativeGq.Result r = gq.runWithin(30, "wait", "1");
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon did not answer for 2 s, nor a ping on a second connection"
          + String.format(HUNG, gq.log()), r.err());
    } finally {
      never.countDown();
    }
  }

  @Test
  void aSilentDaemonThatAnswersPingsIsWaitedFor() throws Exception {
    FakeDaemon[] self = new FakeDaemon[1];
    FakeDaemon d = self[0] = new FakeDaemon(gq.socket(), (req, in, out) -> {
      if (req instanceof ClientRequest.Ping) {
        out.send(Frame.pong(1, "t"));
        return;
      }
      // a job that ends only after the client has pinged twice: silent for longer than the timeout
      while (self[0].requests.stream().filter(q -> q instanceof ClientRequest.Ping).count() < 2) Thread.sleep(20);
      out.send(Frame.out("job 1 ended\n"));
      out.send(Frame.exit(0));
    });
    try (d) {
      NativeGq.Result r = gq.runWithin(60, "wait", "1");
      assertEquals(0, r.code(), r.err());
      assertEquals("job 1 ended\n", r.out());
      assertEquals("", r.err());
    }
  }

  @Test
  void aDaemonThatTakesNoConnectionEndsTheCommandWithOneLine() throws Exception {
    // a stopped daemon's queue of connections waiting to be taken (here 1 long) fills up, and a
    // connect then waits for room in it
    try (NativeGq.MuteDaemon d = new NativeGq.MuteDaemon(gq.socket(), 1, false);
        SocketChannel first = SocketChannel.open(UnixDomainSocketAddress.of(gq.socket()));
        SocketChannel second = SocketChannel.open(UnixDomainSocketAddress.of(gq.socket()))) {
      long start = System.nanoTime();
      NativeGq.Result r = gq.runWithin(30, "ps");
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon at " + gq.socket() + " took no connection for 2 s (its queue of waiting connections"
          + " is full)" + String.format(HUNG, gq.log()), r.err());
      assertTrue(millis >= 1500, "gave up after " + millis + " ms, before the timeout");
    }
  }

  @Test
  void aDaemonThatReadsNothingEndsTheCommandWithOneLine() throws Exception {
    // a request larger than what the socket holds: sending it waits for the daemon to read
    long buffer = Long.parseLong(Files.readString(Path.of("/proc/sys/net/core/wmem_default")).strip());
    assumeTrue(buffer < 400_000, "a socket buffer of " + buffer + " bytes holds the largest environment a process can have");
    for (int i = 0; i < 8; i++) gq.env.put("LARGE_" + i, "x".repeat(120_000));
    try (NativeGq.MuteDaemon d = new NativeGq.MuteDaemon(gq.socket(), 50, true)) {
      NativeGq.Result r = gq.runWithin(30, "ps");
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon read nothing gq sent for 2 s, nor answered a ping on a second connection"
          + String.format(HUNG, gq.log()), r.err());
    }
  }

  @Test
  void aStoppedDaemonProcessEndsTheCommandWithOneLineAndServesOnceResumed() throws Exception {
    gq.env.put("GQ_DAEMON_CMD", fakeDaemonScript().toString());
    NativeGq.Result started = gq.runWithin(60, "ps");
    assertEquals(0, started.code(), started.err());
    long pid = Long.parseLong(Files.readString(gq.runtime.resolve("gq.pid")).strip());
    try {
      assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor());
      NativeGq.Result r = gq.runWithin(30, "ps");
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon did not answer for 2 s, nor a ping on a second connection"
          + String.format(HUNG, gq.log()), r.err());
      assertEquals(0, new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor());
      NativeGq.Result again = gq.runWithin(30, "ps");
      assertEquals(0, again.code(), again.err());
      assertEquals("ran ps\n", again.out());
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private Path fakeDaemonScript() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path p = dir.resolve("daemon.sh");
    Files.writeString(p, "#!/bin/sh\nexec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' " + FakeDaemonMain.class.getName() + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }
}

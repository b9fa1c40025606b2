package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native client around the daemon's life: starting it on demand, stopping and restarting it,
 * one that restarts under gq wait and gq logs -f, one of another protocol version. A daemon that
 * hangs is NativeLivenessTest's; another user's, NativeTrustTest's.
 */
@Timeout(90)
class NativeDaemonControlTest {
  @TempDir Path dir;
  NativeGq gq;

  @BeforeEach
  void setUp() throws Exception {
    gq = new NativeGq(dir);
  }

  private Path script(String body) throws Exception {
    Path p = dir.resolve("daemon-" + System.nanoTime() + ".sh");
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  /** Whether process {@code pid} runs: it is there and not a zombie. */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int close = stat.lastIndexOf(')');
      return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
    } catch (IOException e) {
      return false;
    }
  }

  private String fakeDaemonCommand(String arg) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return "exec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path")
        + "' " + FakeDaemonMain.class.getName() + " " + arg;
  }

  @Test
  void startsTheDaemonOnDemandTalksToItAndStopsIt() throws Exception {
    gq.env.put("GQ_DAEMON_CMD", script(fakeDaemonCommand("")).toString());
    gq.env.put("GQ_JOB_TAG", "tag-of-a-job");
    NativeGq.Result ps = gq.run("ps", "-a");
    assertEquals(0, ps.code(), ps.err());
    assertEquals("ran ps -a\n", ps.out());
    assertEquals(gq.data + "|false|" + gq.data + "\n", Files.readString(gq.data.resolve("daemon.env")),
        "absolute directories, no launcher variables, started in the data directory");
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(gq.runtime)));
    assertTrue(gq.run("daemon", "start").out().matches("gq daemon is already running \\(pid \\d+\\)\n"));
    NativeGq.Result stop = gq.run("daemon", "stop");
    assertEquals("ran daemon stop\n", stop.out(), stop.err());
    NativeGq.Result status = gq.run("daemon", "status");
    assertEquals(1, status.code());
    assertEquals("gq daemon is not running\n", status.out());
  }

  @Test
  void stopReturnsOnlyOnceTheDaemonsProcessHasExited() throws Exception {
    gq.env.put("GQ_DAEMON_CMD", script(fakeDaemonCommand("")).toString());
    NativeGq.Result start = gq.run("daemon", "start");
    assertEquals(0, start.code(), start.err());
    long pid = Long.parseLong(start.out().replaceAll("\\D", ""));
    NativeGq.Result stop = gq.run("daemon", "stop", "--wait");
    assertEquals(0, stop.code(), stop.err());
    assertTrue(!running(pid), "the daemon's process is gone");
  }

  @Test
  void restartStartsTheNewDaemonOnlyOnceTheOldOneHasLetGoOfItsLock() throws Exception {
    gq.env.put("GQ_DAEMON_CMD", script(fakeDaemonCommand("")).toString());
    NativeGq.Result start = gq.run("daemon", "start");
    assertEquals(0, start.code(), start.err());
    NativeGq.Result restart = gq.run("daemon", "restart");
    assertEquals(0, restart.code(), restart.err());
    assertTrue(restart.out().matches("ran daemon restart\ngq daemon started \\(pid \\d+\\)\n"), restart.out());
    assertTrue(!restart.out().contains(start.out().replaceAll("\\D", "") + ")"), "a new daemon: " + restart.out());
    assertEquals(0, gq.run("daemon", "stop").code());
  }

  @Test
  void aDaemonThatExitsEarlyIsReportedWithItsLog() throws Exception {
    Files.createDirectories(gq.data);
    Files.writeString(gq.log(), "old line from yesterday\n");
    gq.env.put("GQ_DAEMON_CMD", script("echo \"job: ${GQ_JOB_TAG-unset}\"; echo 'gq daemon: the data directory is"
        + " locked' >&2; exit 3").toString());
    gq.env.put("GQ_JOB_TAG", "tag-of-a-job");
    NativeGq.Result r = gq.run("ps");
    assertEquals(1, r.code());
    assertEquals("gq: the daemon did not start: the data directory is locked; last lines of " + gq.log() + ":\n"
        + "job: unset\ngq daemon: the data directory is locked\n", r.err());
  }

  @Test
  void aDaemonThatCannotBeRunIsNamed() throws Exception {
    gq.env.put("GQ_DAEMON_CMD", dir.resolve("missing").toString());
    NativeGq.Result r = gq.run("ps");
    assertEquals(1, r.code());
    assertEquals("gq: cannot start the daemon with GQ_DAEMON_CMD=" + dir.resolve("missing")
        + ": No such file or directory; check that it is an executable file\n", r.err());
  }

  @Test
  void waitsForTheDaemonOfAnotherClientThatHoldsTheLock() throws Exception {
    Files.createDirectories(gq.runtime);
    gq.env.put("GQ_DAEMON_CMD", script("echo 'another gq daemon is already running'; exit 1").toString());
    FakeDaemon[] winner = new FakeDaemon[1];
    try (var ch = java.nio.channels.FileChannel.open(gq.runtime.resolve("gq.lock"),
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
        var lock = ch.lock()) {
      Thread later = new Thread(() -> {
        try {
          Thread.sleep(700);
          winner[0] = new FakeDaemon(gq.socket(), (req, in, out) -> out.send(Frame.exit(0)));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      later.start();
      NativeGq.Result r = gq.run("ps");
      assertEquals(0, r.code(), r.err());
      later.join();
    } finally {
      if (winner[0] != null) winner[0].close();
    }
  }

  @Test
  void logsFollowIsSentAgainAcrossARestartWithoutPrintingTwice() throws Exception {
    CountDownLatch first = new CountDownLatch(1);
    FakeDaemon[] old = new FakeDaemon[1];
    old[0] = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.out("abc"));
      old[0].close(); // the daemon goes away: socket file first, then the connection
      first.countDown();
    });
    Process p = gq.builder("logs", "-f", "1").start();
    assertTrue(first.await(30, TimeUnit.SECONDS));
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.out("abcdef\n"));
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result r = NativeGq.finish(p, new byte[0]);
      assertEquals(0, r.code(), r.err());
      assertEquals("abcdef\n", r.out());
      assertEquals("gq: the daemon closed the connection; reconnecting (it may be restarting)\n", r.err());
    }
  }

  @Test
  void anotherCommandIsNotSentAgainWhenTheDaemonGoesAway() throws Exception {
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> out.send(Frame.out("partly\n")))) {
      NativeGq.Result r = gq.run("-g", "1", "train.sh");
      assertEquals(1, r.code());
      assertEquals("gq: the daemon closed the connection before answering; see " + gq.log() + "\n", r.err());
      assertEquals(1, d.requests.size(), "a submit is sent once");
    }
  }

  @Test
  void aDaemonThatKeepsClosingUnderAWaitIsNotFollowedForever() throws Exception {
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> { })) {
      NativeGq.Result r = gq.run("wait", "1");
      assertEquals(1, r.code());
      assertTrue(r.err().endsWith("gq: the daemon closed the connection 6 times in a row; see " + gq.log() + "\n"), r.err());
      assertEquals(6, d.requests.size(), "sent again 5 times, then given up");
    }
  }

  @Test
  void aStandardOutputThatCannotBeWrittenIsSaidOnStderrAndAClosedOneEndsQuietly() throws Exception {
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.out("line\n".repeat(20_000)));
      out.send(Frame.exit(0));
    })) {
      ProcessBuilder full = new ProcessBuilder("bash", "-c", "exec \"$0\" ps >/dev/full", NativeGq.BINARY.toString());
      full.environment().clear();
      full.environment().putAll(gq.env);
      NativeGq.Result r = NativeGq.finish(full.directory(gq.work.toFile()).start(), new byte[0]);
      assertEquals(1, r.code());
      assertEquals("gq: cannot write to standard output: No space left on device\n", r.err());
      ProcessBuilder closed = new ProcessBuilder("bash", "-c", "\"$0\" ps | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}",
          NativeGq.BINARY.toString());
      closed.environment().clear();
      closed.environment().putAll(gq.env);
      NativeGq.Result quiet = NativeGq.finish(closed.directory(gq.work.toFile()).start(), new byte[0]);
      assertEquals(141, quiet.code(), quiet.err());
      assertEquals("", quiet.err(), "quiet, as tools killed by SIGPIPE are");
    }
  }

  @Test
  void aDaemonOfAnotherProtocolVersionIsStillStopped() throws Exception {
    Files.createDirectories(gq.runtime);
    Files.createDirectories(gq.data);
    ProcessBuilder pb = new ProcessBuilder("sh", "-c", fakeDaemonCommand("old"));
    pb.environment().putAll(gq.env);
    pb.redirectErrorStream(true).redirectOutput(dir.resolve("old.out").toFile());
    Process old = pb.start();
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (!Files.exists(gq.socket()) && System.nanoTime() < deadline) Thread.sleep(20);
      NativeGq.Result ps = gq.run("ps");
      assertEquals(1, ps.code());
      assertEquals("gq: the client speaks protocol 2 and this daemon 1; restart the daemon so both run the same gq"
          + " version\n", ps.err());
      NativeGq.Result stop = gq.run("daemon", "stop");
      assertEquals(0, stop.code(), stop.err());
      assertEquals("daemon stopping (pid " + old.pid() + ", another gq version); running jobs keep running\n", stop.out());
      assertTrue(old.waitFor(30, TimeUnit.SECONDS), "the old daemon stopped");
      assertEquals(1, gq.run("daemon", "status").code());
    } finally {
      old.destroyForcibly();
    }
  }
}

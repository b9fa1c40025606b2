package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class DaemonControlTest {
  @TempDir Path dir;
  Harness h;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
  }

  @Test
  void statusAndStopWithoutADaemonStartNothing() {
    h.env.put(DaemonLauncher.DAEMON_CMD, "/bin/false");
    assertEquals(1, h.run("daemon", "status"));
    assertEquals("gq daemon is not running\n", h.out);
    assertEquals(0, h.run("--json", "daemon", "stop"));
    assertEquals("gq daemon is not running\n", h.out);
    assertFalse(Files.exists(h.data), "nothing created");
  }

  @Test
  void statusWithADaemonIsAnsweredByTheDaemon() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.out("running, pid 42\n"));
      out.send(Frame.exit(0));
    })) {
      assertEquals(0, h.run("daemon", "status"));
    }
    assertEquals("running, pid 42\n", h.out);
  }

  @Test
  void startWithADaemonRunningSaysSoFromAPing() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.pong(4242, "t")))) {
      assertEquals(0, h.run("daemon", "start"));
      assertTrue(d.requests.get(0) instanceof ClientRequest.Ping);
    }
    assertEquals("gq daemon is already running (pid 4242)\n", h.out);
  }

  @Test
  void stopWaitsUntilTheSocketRefuses() throws Exception {
    FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)));
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(400);
        d.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    closer.start();
    long t0 = System.nanoTime();
    assertEquals(0, h.run("daemon", "stop"));
    assertTrue(System.nanoTime() - t0 >= 350_000_000L, "returned before the daemon went away");
    assertFalse(Files.exists(h.socket()));
  }

  @Test
  void aDaemonThatExitsEarlyIsReportedWithItsLog() throws Exception {
    Files.createDirectories(h.data);
    Files.writeString(h.log(), "old line from yesterday\n");
    Path cmd = script("echo \"env: $GQ_DATA_DIR ${GQ_CLIENT_TTY_IN-unset}\"; echo 'boom: no database' >&2; exit 3");
    h.env.put(DaemonLauncher.DAEMON_CMD, cmd.toString());
    assertEquals(1, h.run("ps"));
    assertEquals("gq: the daemon did not start; last lines of " + h.log() + ":\n"
        + "env: " + h.data + " unset\nboom: no database\n", h.err);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(h.runtime)));
  }

  @Test
  void aDaemonStartedFromInsideAJobDoesNotCarryTheJobsTag() throws Exception {
    h.env.put("GQ_JOB_TAG", "tag-of-the-job");
    h.env.put("GQ_JOB_ID", "4");
    h.env.put(DaemonLauncher.DAEMON_CMD, script("echo \"job: ${GQ_JOB_TAG-unset} ${GQ_JOB_ID-unset}\"; exit 3").toString());
    assertEquals(1, h.run("ps"));
    assertTrue(h.err.contains("job: unset unset\n"), h.err);
  }

  @Test
  void aDaemonThatSaysWhyItStopsIsReportedWithThatLineFirst() throws Exception {
    Path cmd = script("echo 'INFO replaying the scheduler'; echo 'gq daemon: out of memory: the Java heap limit (96m,"
        + " GQ_DAEMON_HEAP) is reached, so the daemon stops'; echo 'Terminating due to java.lang.OutOfMemoryError'; exit 3");
    h.env.put(DaemonLauncher.DAEMON_CMD, cmd.toString());
    assertEquals(1, h.run("ps"));
    assertEquals("gq: the daemon did not start: out of memory: the Java heap limit (96m, GQ_DAEMON_HEAP) is reached, so"
        + " the daemon stops; last lines of " + h.log() + ":\nINFO replaying the scheduler\ngq daemon: out of memory: the"
        + " Java heap limit (96m, GQ_DAEMON_HEAP) is reached, so the daemon stops\nTerminating due to"
        + " java.lang.OutOfMemoryError\n", h.err);
  }

  @Test
  void aDaemonThatWritesNothingIsReportedWithItsExitCode() throws Exception {
    h.env.put(DaemonLauncher.DAEMON_CMD, script("exit 7").toString());
    assertEquals(1, h.run("ps"));
    assertEquals("gq: the daemon did not start; last lines of " + h.log() + ":\n"
        + "(nothing new in it; it exited with code 7)\n", h.err);
  }

  @Test
  void waitsForTheDaemonOfAnotherClientThatHoldsTheLock() throws Exception {
    Files.createDirectories(h.runtime);
    Path lockFile = h.runtime.resolve("gq.lock");
    h.env.put(DaemonLauncher.DAEMON_CMD, script("echo 'another gq daemon is already running'; exit 1").toString());
    FakeDaemon[] winner = new FakeDaemon[1];
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      Thread later = new Thread(() -> {
        try {
          Thread.sleep(700);
          winner[0] = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      later.start();
      assertEquals(0, h.run("ps"));
      later.join();
    } finally {
      if (winner[0] != null) winner[0].close();
    }
  }

  @Test
  void aDaemonThatNeverAnswersTimesOut() throws Exception {
    h.env.put(DaemonLauncher.DAEMON_CMD, script("echo waiting; exec sleep 3").toString());
    h.startTimeoutMillis = 300;
    assertEquals(1, h.run("ps"));
    assertTrue(h.err.endsWith(":\nwaiting\n"), h.err);
  }

  @Test
  void withoutDaemonCmdTheClientSaysHowToRunGq() {
    assertEquals(1, h.run("ps"));
    assertTrue(h.err.startsWith("gq: no daemon is running and GQ_DAEMON_CMD is not set"), h.err);
  }

  @Test
  void startsTheDaemonThenTalksToItAndStopsIt() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path cmd = script("exec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' " + FakeDaemonMain.class.getName());
    h.env.put(DaemonLauncher.DAEMON_CMD, cmd.toString());
    h.env.put("GQ_CLIENT_TTY_IN", "1");
    assertEquals(0, h.run("ps", "-a"));
    assertEquals("ran ps -a\n", h.out);
    assertEquals("", h.err);
    String seen = Files.readString(h.data.resolve("daemon.env"));
    assertEquals(h.data + "|false|" + h.data + "\n", seen, "absolute dirs, no client vars, cwd");
    assertEquals(0, h.run("daemon", "start"));
    assertTrue(h.out.startsWith("gq daemon is already running (pid "), h.out);
    assertEquals(0, h.run("daemon", "stop"));
    assertEquals("ran daemon stop\n", h.out);
    assertEquals(1, h.run("daemon", "status"));
    assertEquals("gq daemon is not running\n", h.out);
    assertTrue(Files.readString(h.log()).contains("listening"), "daemon output goes to its log");
  }

  @Test
  void daemonStartStartsOneAndReportsItsPid() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path cmd = script("exec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' " + FakeDaemonMain.class.getName());
    h.env.put(DaemonLauncher.DAEMON_CMD, cmd.toString());
    assertEquals(0, h.run("daemon", "start"));
    assertTrue(h.out.matches("gq daemon started \\(pid \\d+\\)\n"), h.out);
    assertEquals(0, h.run("daemon", "stop"));
  }

  @Test
  void stopReturnsOnlyOnceTheDaemonsProcessHasExited() throws Exception {
    h.env.put(DaemonLauncher.DAEMON_CMD, script(fakeDaemon()).toString());
    assertEquals(0, h.run("daemon", "start"));
    long pid = Long.parseLong(h.out.replaceAll("\\D", ""));
    assertEquals(0, h.run("daemon", "stop"));
    assertFalse(DaemonExit.running(pid, Path.of("/proc")), "the daemon's process is gone");
  }

  @Test
  void restartStartsTheNewDaemonOnlyOnceTheOldOneHasLetGoOfItsLock() throws Exception {
    h.env.put(DaemonLauncher.DAEMON_CMD, script(fakeDaemon()).toString());
    assertEquals(0, h.run("daemon", "start"));
    String first = h.out;
    assertEquals(0, h.run("daemon", "restart"), h.err);
    assertTrue(h.out.matches("ran daemon restart\ngq daemon started \\(pid \\d+\\)\n"), h.out + h.err);
    assertFalse(h.out.contains(first.replaceAll("\\D", "") + ")"), "a new daemon: " + h.out);
    assertEquals(0, h.run("daemon", "stop", "--no-wait"));
  }

  @Test
  void restartSaysInOneLineWhenTheOldDaemonDoesNotExitAndStartsNone() throws Exception {
    Files.createDirectories(h.runtime);
    // the old daemon's process: it holds the lock after its socket is gone, past the bound
    Process holder = new ProcessBuilder("flock", h.runtime.resolve("gq.lock").toString(), "sleep", "30").start();
    try {
      while (LockProbe.holder(h.runtime.resolve("gq.lock")) != holder.pid()) Thread.sleep(10);
      FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.exit(0)));
      Thread closer = new Thread(() -> {
        try {
          Thread.sleep(200);
          d.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      closer.start();
      h.env.put(DaemonLauncher.DAEMON_CMD, "/bin/false");
      h.exitTimeoutMillis = 1000;
      assertEquals(1, h.run("daemon", "restart"));
      assertEquals("gq: the daemon (pid " + holder.pid() + ") has not exited 1 s after it was asked to stop; no new daemon was"
          + " started: run 'gq daemon start' once it has exited; see " + h.log() + "\n", h.err);
      closer.join();
    } finally {
      holder.destroyForcibly();
    }
  }

  private static String fakeDaemon() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return "exec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' "
        + FakeDaemonMain.class.getName();
  }

  private Path script(String body) throws Exception {
    Path p = dir.resolve("daemon-" + System.nanoTime() + ".sh");
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }
}

package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon that no longer answers (stopped, hung) ends the client with one line after
 * GQ_ANSWER_TIMEOUT; one that is silent but answers pings (a long {@code gq wait}) is waited for.
 */
@Timeout(60)
class LivenessTest {
  @TempDir Path dir;
  Harness h;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
    h.env.put(Watchdog.ENV_TIMEOUT, "2");
  }

  @Test
  void aHungDaemonEndsTheCommandWithOneLine() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> never.await())) {
      long start = System.nanoTime();
      assertEquals(1, h.run("ps"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 1500 && millis < 15_000, millis + " ms");
      assertTrue(d.requests.stream().anyMatch(r -> r instanceof ClientRequest.Ping), "it pinged before giving up");
    } finally {
      never.countDown();
    }
    assertTrue(h.err.startsWith("gq: the daemon did not answer for 2 s, nor a ping on a second connection;"), h.err);
    assertEquals(1, h.err.lines().count(), h.err);
  }

  @Test
  void aSilentDaemonThatAnswersPingsIsWaitedFor() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      if (req instanceof ClientRequest.Ping) {
        out.send(Frame.pong(1, "test"));
        return;
      }
      Thread.sleep(5_000); // a wait whose job ends after more than twice the timeout
      out.send(Frame.out("Job 1 ended DONE (exit code 0)\n"));
      out.send(Frame.exit(0));
    })) {
      assertEquals(0, h.run("wait", "1"));
      assertTrue(d.requests.stream().filter(r -> r instanceof ClientRequest.Ping).count() >= 2, "pinged meanwhile");
    }
    assertEquals("Job 1 ended DONE (exit code 0)\n", h.out);
    assertEquals("", h.err);
  }

  @Test
  void aStoppedDaemonProcessEndsTheCommandWithOneLine() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path cmd = dir.resolve("daemon.sh");
    Files.writeString(cmd, "#!/bin/sh\nexec '" + java + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' " + FakeDaemonMain.class.getName() + "\n");
    Files.setPosixFilePermissions(cmd, PosixFilePermissions.fromString("rwx------"));
    h.env.put(DaemonLauncher.DAEMON_CMD, cmd.toString());
    assertEquals(0, h.run("ps"));
    long pid = Long.parseLong(Files.readString(h.runtime.resolve("gq.pid")).strip());
    try {
      assertEquals(0, new ProcessBuilder("kill", "-STOP", String.valueOf(pid)).start().waitFor());
      assertEquals(1, h.run("ps"));
      assertTrue(h.err.startsWith("gq: the daemon did not answer for 2 s"), h.err);
      assertEquals(0, new ProcessBuilder("kill", "-CONT", String.valueOf(pid)).start().waitFor());
      assertEquals(0, h.run("ps"), h.err);
      assertEquals("ran ps\n", h.out);
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}

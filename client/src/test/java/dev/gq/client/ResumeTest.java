package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq wait} and {@code gq logs -f} outlive a daemon restart: the connection closing before the
 * exit frame makes the client send the command again, and {@code logs -f} prints nothing twice.
 * Other commands still fail, since sending them again could repeat what they did.
 */
@Timeout(30)
class ResumeTest {
  @TempDir Path dir;
  Harness h;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
  }

  @Test
  void waitSendsItselfAgainWhenTheDaemonRestartsUnderIt() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      if (runs.incrementAndGet() == 1) return; // the daemon went away mid-wait
      out.send(Frame.out("Job 1 ended DONE (exit code 0)\n"));
      out.send(Frame.exit(0));
    })) {
      assertEquals(0, h.run("wait", "1"));
      assertEquals(2, d.requests.size());
      assertEquals(((ClientRequest.Run) d.requests.get(0)).argv(), ((ClientRequest.Run) d.requests.get(1)).argv());
    }
    assertEquals("Job 1 ended DONE (exit code 0)\n", h.out);
    assertEquals("gq: the daemon closed the connection; reconnecting (it may be restarting)\n", h.err);
  }

  @Test
  void followingALogAcrossARestartPrintsEachByteOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      if (runs.incrementAndGet() == 1) {
        out.send(Frame.out("épo"));
        out.send(Frame.out("ch 1\nep"));
        return;
      }
      out.send(Frame.out("époch 1\nepoch 2\n"));
      out.send(Frame.out("epoch 3\n"));
      out.send(Frame.exit(0));
    })) {
      assertEquals(0, h.run("logs", "-f", "7"));
    }
    assertEquals("époch 1\nepoch 2\nepoch 3\n", h.out);
  }

  @Test
  void aDaemonThatDoesNotComeBackEndsTheWaitWithOneLine() throws Exception {
    h.reconnectMillis = 1000;
    AtomicReference<FakeDaemon> self = new AtomicReference<>();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> self.get().close())) {
      self.set(d);
      assertEquals(1, h.run("wait", "1"));
    }
    assertTrue(h.err.endsWith("gq: the daemon stopped and did not come back within 1 s; start it with 'gq daemon start'"
        + " and run the command again (see " + h.log() + ")\n"), h.err);
  }

  @Test
  void aDaemonThatKeepsClosingIsNotFollowedForever() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> { })) {
      assertEquals(1, h.run("wait", "1"));
      assertEquals(Main.MAX_QUICK_RECONNECTS + 1, d.requests.size());
    }
    assertTrue(h.err.endsWith("gq: the daemon closed the connection " + (Main.MAX_QUICK_RECONNECTS + 1)
        + " times in a row; see " + h.log() + "\n"), h.err);
  }

  @Test
  void otherCommandsAreNotSentTwice() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> { })) {
      assertEquals(1, h.run("submit", "--", "train.py"));
      assertEquals(1, h.run("logs", "7"));
      assertEquals(2, d.requests.size());
    }
    assertTrue(h.err.contains("the daemon closed the connection before answering"), h.err);
  }
}

package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests are served on threads kept from earlier requests: a thread that served one serves a
 * later one, and a request that waits long never holds up another.
 */
@Timeout(60)
class SocketServerThreadsTest {
  @TempDir Path dir;

  @Test
  void aThreadThatServedOneRequestServesTheNextAndALongRequestHoldsUpNoOther() throws Exception {
    BlockingQueue<Thread> servedBy = new LinkedBlockingQueue<>();
    CountDownLatch stuckAsked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    GqApi api = AnsweringApi.of((method, args) -> {
      if (method.getName().equals("job")) {
        if (Long.valueOf(99).equals(args[0])) {
          stuckAsked.countDown();
          release.await();
        } else {
          servedBy.add(Thread.currentThread());
        }
        return java.util.Optional.empty(); // no such job
      }
      throw new UnsupportedOperationException(method.getName());
    });
    Path sock = dir.resolve("gq.sock");
    SocketServer server = SocketServer.start(sock, api, 0);
    try (SocketChannel stuck = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      stuck.connect(UnixDomainSocketAddress.of(sock));
      new LineWriter(stuck).write(request("show", "99"));
      assertTrue(stuckAsked.await(20, TimeUnit.SECONDS), "the first request is being served");

      // the first request still runs: each of these is answered all the same
      Thread first = null;
      for (int i = 0; i < 5; i++) {
        assertEquals(1, exitCode("show", "1"), "no job 1");
        Thread t = servedBy.poll(10, TimeUnit.SECONDS);
        assertNotNull(t);
        if (first == null) first = t;
        else assertSame(first, t, "request " + (i + 1) + " served by the thread of the first one");
        // the thread goes back to wait for the next connection once it has answered: wait until it does
        awaitIdle(t);
      }
      assertEquals("gq-client", first.getName());
    } finally {
      release.countDown();
      server.close();
    }
  }

  /** Waits until {@code t} waits in its pool for the next connection (its stack is in the pool's getTask). */
  private static void awaitIdle(Thread t) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (java.util.Arrays.stream(t.getStackTrace()).noneMatch(f -> f.getMethodName().equals("getTask"))) {
      if (System.nanoTime() > end) throw new AssertionError(t.getName() + " did not go back to wait for a connection");
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  private static String request(String... argv) {
    return new ClientRequest.Run("r", List.of(argv), "/", Map.of(), false, false, false, 80).toJson();
  }

  private int exitCode(String... argv) throws IOException {
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(dir.resolve("gq.sock")));
      new LineWriter(c).write(request(argv));
      LineReader r = new LineReader(c);
      for (String line; (line = r.readLine()) != null; )
        if (Frame.decode(line) instanceof Frame.Exit x) return x.code();
      throw new AssertionError("no exit frame");
    }
  }
}

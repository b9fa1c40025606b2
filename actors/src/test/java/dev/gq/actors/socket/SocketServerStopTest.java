package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stopping daemon ends the connections it still serves without an answer, before its actors
 * stop: a {@code gq wait} then sees the end of the stream and asks the next daemon, instead of
 * getting an error from actors that are already gone.
 */
@Timeout(30)
class SocketServerStopTest {
  @TempDir Path dir;

  @Test
  void aCommandStillRunningWhenTheDaemonStopsSeesItsConnectionEndWithoutAnAnswer() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    GqApi api = AnsweringApi.of((method, args) -> {
      if (method.getName().equals("job")) {
        asked.countDown();
        never.await(); // the wait command polls a job: here it never gets its answer
      }
      throw new UnsupportedOperationException(method.getName());
    });
    Path sock = dir.resolve("gq.sock");
    SocketServer server = SocketServer.start(sock, api, 0);
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(sock));
      new LineWriter(c).write(new ClientRequest.Run("r1", List.of("wait", "1"), "/", Map.of(), false, false, false, 80).toJson());
      assertTrue(asked.await(20, TimeUnit.SECONDS), "the command is running");
      server.close();
      assertNull(new LineReader(c).readLine(), "the end of the stream, no frame");
    } finally {
      never.countDown();
    }
  }
}

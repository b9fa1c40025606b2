package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Out of descriptors, with another thread taking every descriptor it can get, the accept loop
 * keeps refusing the clients past its descriptors: a descriptor that thread lets go goes back to
 * the spares, not to a client that would hold it. Runs the loop in a process of its own
 * ({@link AcceptLoopProbe}), whose descriptors it uses up. The loop that kept one spare refused
 * a client about once a second after a few takes, and 400 clients did not get past its backlog in
 * 30 s (3 of 3 tries); this one refuses them in under 0.1 s.
 */
class AcceptLoopSparesTest {
  private static final int FREE = 8;
  private static final int CLIENTS = 400;
  @TempDir Path tmp;

  @Test
  void aThreadThatTakesFreedDescriptorsDoesNotStopTheRefusals() throws Exception {
    Path socket = tmp.resolve("s.sock");
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        AcceptLoopProbe.class.getName(), socket.toString(), String.valueOf(FREE))
        .redirectErrorStream(true).start();
    List<SocketChannel> clients = new ArrayList<>();
    try {
      var out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("ready", out.readLine());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (clients.size() < CLIENTS) {
        SocketChannel c = connected(socket);
        if (c != null) clients.add(c);
        else if (System.nanoTime() > deadline) break;
        else Thread.sleep(1);
      }
      assertEquals(CLIENTS, clients.size(), "clients that got past the backlog in 30 s (the loop stopped refusing)");
      // at most FREE descriptors were ever free, so all but that many clients are refused
      Map<SocketChannel, String> got = new HashMap<>();
      int refused = 0;
      while (System.nanoTime() < deadline) {
        refused = 0;
        for (SocketChannel c : clients) if (refusedOutOfFiles(c, got)) refused++;
        if (refused >= CLIENTS - FREE) break;
        Thread.sleep(10);
      }
      assertTrue(refused >= CLIENTS - FREE, refused + " of " + CLIENTS + " refused in 30 s");
    } finally {
      for (SocketChannel c : clients) c.close();
      p.destroyForcibly().waitFor();
    }
  }

  /** A connection that does not wait for the backlog, or null when it is full. */
  private static SocketChannel connected(Path socket) throws IOException {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    c.configureBlocking(false);
    try {
      if (c.connect(UnixDomainSocketAddress.of(socket))) return c;
    } catch (IOException full) {
      // the backlog is full
    }
    c.close();
    return null;
  }

  /** Whether the connection has been sent the out-of-descriptors refusal (it ends in exit code 1). */
  private static boolean refusedOutOfFiles(SocketChannel c, Map<SocketChannel, String> got) throws IOException {
    c.configureBlocking(false);
    ByteBuffer b = ByteBuffer.allocate(4096);
    try {
      c.read(b);
    } catch (IOException reset) {
      // what came before the reset was read
    }
    String all = got.merge(c, new String(b.array(), 0, b.position(), StandardCharsets.UTF_8), String::concat);
    return all.contains("run out of file descriptors") && all.contains("\"exit\"");
  }
}

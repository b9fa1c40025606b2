package dev.gq.actors.socket;

import dev.gq.protocol.Frame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts clients for the {@link SocketServer}, never more than it can serve: at most
 * {@link ClientLimit#max()} connections are served at once, each on its own platform thread; a
 * client beyond that gets a one-line refusal (an error frame and exit code 1) and is closed at
 * once. When accepting fails (the process is out of file descriptors), it frees a spare descriptor
 * to accept one waiting client and refuse it, then waits before trying again, doubling the wait
 * up to a second; a run of failures is logged once when it starts and once, with its count, when
 * it ends. Runs on one thread.
 */
final class AcceptLoop implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(AcceptLoop.class);
  static final long FIRST_BACKOFF_MS = 10;
  static final long MAX_BACKOFF_MS = 1000;

  private final ServerSocketChannel server;
  private final ClientLimit limit;
  private final Semaphore slots;
  private final Consumer<SocketChannel> serve;
  private final BooleanSupplier open;
  private FileChannel spare;
  private long backoffMs = FIRST_BACKOFF_MS;
  private long failures;
  private long failingSince;

  AcceptLoop(ServerSocketChannel server, ClientLimit limit, Consumer<SocketChannel> serve, BooleanSupplier open) {
    this.server = server;
    this.limit = limit;
    this.slots = new Semaphore(limit.max());
    this.serve = serve;
    this.open = open;
    this.spare = openSpare();
  }

  @Override
  public void run() {
    while (open.getAsBoolean()) {
      SocketChannel c;
      try {
        c = server.accept();
      } catch (IOException e) {
        if (open.getAsBoolean()) failed(e);
        continue;
      }
      recovered();
      if (slots.tryAcquire()) start(c);
      else refuse(c, limit.busy());
    }
  }

  private void start(SocketChannel c) {
    try {
      Thread.ofPlatform().name("gq-client").daemon(true).start(() -> {
        try {
          serve.accept(c);
        } finally {
          slots.release();
        }
      });
    } catch (OutOfMemoryError | RuntimeException e) {
      // no thread to be had: say so rather than leave the client waiting
      slots.release();
      LOG.warn("cannot start a thread for a client: {}", e.toString());
      refuse(c, "the daemon cannot start a thread for this request now; try again shortly");
    }
  }

  /** Accept failed: refuse one waiting client through the spare descriptor, or wait before the next try. */
  private void failed(IOException e) {
    if (failures++ == 0) {
      failingSince = System.nanoTime();
      LOG.warn("accept failed: {}; refusing waiting clients and retrying with a back-off of up to {} ms", e.getMessage(), MAX_BACKOFF_MS);
    }
    if (spare != null && refuseOneWithSpare()) return;
    sleep(backoffMs);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    if (spare == null) spare = openSpare();
  }

  private boolean refuseOneWithSpare() {
    closeQuietly(spare);
    spare = null;
    try {
      refuse(server.accept(), limit.outOfFiles());
      return true;
    } catch (IOException again) {
      return false;
    } finally {
      spare = openSpare();
    }
  }

  private void recovered() {
    if (failures == 0) return;
    LOG.warn("accepting clients again after {} failed accepts in {} ms", failures, (System.nanoTime() - failingSince) / 1_000_000);
    failures = 0;
    backoffMs = FIRST_BACKOFF_MS;
  }

  /**
   * Writes the refusal without blocking (it fits the empty socket buffer of a new connection)
   * and closes; the client reads it whether or not it has sent its request yet.
   */
  static void refuse(SocketChannel c, String why) {
    try (c) {
      c.configureBlocking(false);
      String lines = new Frame.Err("gq: " + why + "\n").toJson() + "\n" + new Frame.Exit(1).toJson() + "\n";
      c.write(ByteBuffer.wrap(lines.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      LOG.debug("could not refuse a client: {}", e.getMessage());
    }
  }

  private static FileChannel openSpare() {
    try {
      return FileChannel.open(Path.of("/dev/null"));
    } catch (IOException e) {
      return null;
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      if (ch != null) ch.close();
    } catch (IOException ignored) {
      // a close of /dev/null that fails frees nothing more
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

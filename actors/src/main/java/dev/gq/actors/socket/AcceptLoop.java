package dev.gq.actors.socket;

import dev.gq.protocol.Frame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts clients for the {@link SocketServer}, never more than it can serve: each connection takes
 * a request slot of {@link ClientSlots} (streams have their own budget, which the connection moves
 * to when its command starts following) and is served on a platform thread of its own, one left
 * waiting by an earlier client when there is one; a client beyond the request slots gets a
 * one-line refusal (an error frame and exit code 1) and is closed at once. When accepting fails
 * (the process is out of file descriptors), it frees one of a few spare descriptors to accept one
 * waiting client and refuse it. Another thread may take a freed descriptor first; the spares are
 * topped up before and after every accept, and a client accepted when they cannot be is refused
 * too, so a descriptor freed anywhere goes back to the spares rather than to a client that would
 * keep it. Only with every spare gone does the loop wait before trying again, doubling the wait
 * up to a second and starting short again once a refusal gets through. A run of failures is
 * logged once when it starts and once, with its count, when it ends. Runs on one thread.
 */
final class AcceptLoop implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(AcceptLoop.class);
  static final long FIRST_BACKOFF_MS = 10;
  static final long MAX_BACKOFF_MS = 1000;
  /** Spare descriptors held to refuse clients with while out of descriptors. */
  static final int SPARES = 3;
  private static final IOException NO_SPARE = new IOException("Too many open files (none left for the spare descriptors)");
  /** How long a request thread waits for another connection before it ends. */
  static final long WORKER_IDLE_S = 30;

  private final ServerSocketChannel server;
  private final ClientLimit limit;
  private final ClientSlots slots;
  private final BiConsumer<SocketChannel, ClientSlots.Slot> serve;
  private final BooleanSupplier open;
  /**
   * The request threads: one per connection, kept a while after its request to take the next one
   * (handing a connection to a waiting thread costs less than starting one); about as many as the
   * slots let in at once, since a new thread starts only when none waits. Those waiting end when
   * the loop does.
   */
  private final ThreadPoolExecutor workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, WORKER_IDLE_S, TimeUnit.SECONDS,
      new SynchronousQueue<>(), r -> Thread.ofPlatform().name("gq-client").daemon(true).unstarted(r));
  private final ArrayDeque<FileChannel> spares = new ArrayDeque<>(SPARES);
  private final int wanted;
  private long backoffMs = FIRST_BACKOFF_MS;
  private long failures;
  private long failingSince;

  AcceptLoop(ServerSocketChannel server, ClientLimit limit, ClientSlots slots,
      BiConsumer<SocketChannel, ClientSlots.Slot> serve, BooleanSupplier open) {
    this.server = server;
    this.limit = limit;
    this.slots = slots;
    this.serve = serve;
    this.open = open;
    topUpSpares(SPARES);
    wanted = spares.size();
    // what a refusal writes is made once now: out of descriptors, loading a class from a jar can
    // fail, and the refusal must not be the first to need its classes then
    refusal("");
  }

  @Override
  public void run() {
    try {
      while (open.getAsBoolean()) {
        try {
          acceptOne();
        } catch (RuntimeException | LinkageError e) {
          // the loop outlives anything one client brings about (out of descriptors, a class then
          // cannot be loaded): said once per run of failures, and tried again after the back-off
          if (open.getAsBoolean()) failed(e);
        }
      }
    } finally {
      workers.shutdown(); // requests still served finish; threads that wait for one end now
      spares.forEach(AcceptLoop::closeQuietly);
    }
  }

  private void acceptOne() {
    topUpSpares();
    SocketChannel c;
    try {
      c = server.accept();
    } catch (IOException e) {
      if (open.getAsBoolean()) failed(e);
      return;
    }
    if (!topUpSpares()) {
      // every descriptor but the client's is taken: it goes back to the spares, not to a client that would keep it
      outOfDescriptors(NO_SPARE);
      refuse(c, limit.outOfFiles());
      backoffMs = FIRST_BACKOFF_MS;
      return;
    }
    recovered();
    ClientSlots.Slot slot = slots.take();
    if (slot != null) start(c, slot);
    else refuse(c, limit.busy());
  }

  private void start(SocketChannel c, ClientSlots.Slot slot) {
    try {
      workers.execute(() -> {
        try {
          serve.accept(c, slot);
        } finally {
          slot.release();
        }
      });
    } catch (OutOfMemoryError | RuntimeException e) {
      // no thread to be had: say so rather than leave the client waiting
      slot.release();
      LOG.warn("cannot start a thread for a client: {}", e.toString());
      refuse(c, "the daemon cannot start a thread for this request now; try again shortly");
    }
  }

  /** Accept failed: refuse one waiting client through a spare descriptor, or wait before the next try. */
  private void failed(Throwable e) {
    outOfDescriptors(e);
    if (refuseOneWithSpare()) {
      backoffMs = FIRST_BACKOFF_MS;
      return;
    }
    sleep(backoffMs);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
  }

  /** Counts a failure of the run, said once when the run starts. */
  private void outOfDescriptors(Throwable e) {
    if (failures++ > 0) return;
    failingSince = System.nanoTime();
    LOG.warn("accept failed: {}; refusing waiting clients and retrying with a back-off of up to {} ms",
        e instanceof IOException ? e.getMessage() : e.toString(), MAX_BACKOFF_MS);
  }

  /** Frees a spare to accept one waiting client and refuse it; false when none is left or another thread took it. */
  private boolean refuseOneWithSpare() {
    FileChannel spare = spares.poll();
    if (spare == null) return false;
    closeQuietly(spare);
    try {
      refuse(server.accept(), limit.outOfFiles());
      return true;
    } catch (IOException again) {
      return false;
    } finally {
      topUpSpares();
    }
  }

  /**
   * Opens spares up to as many as were opened at the start ({@link #SPARES} unless /dev/null could
   * not be opened then); false when there are not descriptors enough for them.
   */
  private boolean topUpSpares() {
    return topUpSpares(wanted);
  }

  /** Opens spares up to {@code count}; false when there are not descriptors enough for them. */
  private boolean topUpSpares(int count) {
    while (spares.size() < count) {
      FileChannel spare = openSpare();
      if (spare == null) return false;
      spares.push(spare);
    }
    return true;
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
      c.write(ByteBuffer.wrap(refusal(why)));
    } catch (IOException e) {
      LOG.debug("could not refuse a client: {}", e.getMessage());
    }
  }

  /** The two frames of a refusal: the error line, then exit code 1. */
  static byte[] refusal(String why) {
    String lines = new Frame.Err("gq: " + why + "\n").toJson() + "\n" + new Frame.Exit(1).toJson() + "\n";
    return lines.getBytes(StandardCharsets.UTF_8);
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

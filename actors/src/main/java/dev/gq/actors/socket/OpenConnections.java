package dev.gq.actors.socket;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client connections being served, so that a stopping daemon can end them itself: a stream
 * ({@code gq wait}, {@code gq logs -f}, {@code gq events -f}), which only looks and may run for
 * hours, is closed at once, so its client sees the connection end without an answer and asks the
 * next daemon, instead of getting an error from actors that are already stopping, and the daemon
 * does not wait for it. Short commands (the {@code gq daemon stop} that asked) get a moment to send
 * their answer first.
 */
final class OpenConnections {
  /**
   * How long short commands get to send their answer: a few milliseconds as a rule, but a loaded
   * machine can hold the thread of the {@code gq daemon stop} that asked past half a second, and a
   * stop whose answer is cut off looks failed to its client, which then does not wait for the exit.
   */
  static final long GRACE_MILLIS = 5_000;
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final Set<SocketChannel> streams = ConcurrentHashMap.newKeySet();

  void add(SocketChannel c) {
    open.add(c);
  }

  /** Marks a connection as a stream: closed without grace when the daemon stops. */
  void stream(SocketChannel c) {
    if (open.contains(c)) streams.add(c);
  }

  void remove(SocketChannel c) {
    open.remove(c);
    streams.remove(c);
  }

  /** Closes every stream at once; waits up to {@link #GRACE_MILLIS} for the others to end, then closes what is left. */
  void closeAll() {
    closeEach(streams);
    long deadline = System.nanoTime() + GRACE_MILLIS * 1_000_000L;
    while (!open.isEmpty() && !streams.containsAll(open) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    closeEach(open);
  }

  private static void closeEach(Set<SocketChannel> channels) {
    for (SocketChannel c : channels) {
      try {
        c.close();
      } catch (IOException ignored) {
        // ending anyway
      }
    }
  }
}

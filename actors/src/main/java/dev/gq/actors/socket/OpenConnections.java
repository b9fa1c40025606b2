package dev.gq.actors.socket;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client connections being served, so that a stopping daemon can end them itself: a command
 * that only looks and may run for hours ({@code gq wait}, {@code gq logs -f}) then sees its
 * connection end without an answer and asks the next daemon, instead of getting an error from
 * actors that are already stopping. Short commands (the {@code gq daemon stop} that asked) get a
 * moment to send their answer first.
 */
final class OpenConnections {
  static final long GRACE_MILLIS = 500;
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();

  void add(SocketChannel c) {
    open.add(c);
  }

  void remove(SocketChannel c) {
    open.remove(c);
  }

  /** Waits up to {@link #GRACE_MILLIS} for the connections to end, then closes what is left. */
  void closeAll() {
    long deadline = System.nanoTime() + GRACE_MILLIS * 1_000_000L;
    while (!open.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (SocketChannel c : open) {
      try {
        c.close();
      } catch (IOException ignored) {
        // ending anyway
      }
    }
  }
}

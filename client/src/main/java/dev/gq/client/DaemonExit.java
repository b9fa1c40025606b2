package dev.gq.client;

import dev.gq.protocol.GqPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Waits for a daemon that was asked to stop to be gone: first its socket refuses connections, then
 * it lets go of its lock (its database is closed by then), then its process has exited. The lock
 * names the process ({@link LockProbe#holder}), read before the stop is asked for. {@code gq daemon
 * stop} waits so, unless told {@code --no-wait}, and {@code gq daemon restart} always does: a new
 * daemon started while the old one still holds the lock would refuse to start. Both are bounded
 * by {@link #EXIT_TIMEOUT_MILLIS}, with one line when the bound is reached.
 */
final class DaemonExit {
  static final long STOP_TIMEOUT_MILLIS = 10_000;
  static final long EXIT_TIMEOUT_MILLIS = 30_000;

  private final Connector connector;
  private final GqPaths paths;
  private final long pid;
  private final long timeoutMillis;

  private DaemonExit(Connector connector, GqPaths paths, long pid, long timeoutMillis) {
    this.connector = connector;
    this.paths = paths;
    this.pid = pid;
    this.timeoutMillis = timeoutMillis;
  }

  /** Notes which process holds the daemon's lock now, before it is asked to stop. */
  static DaemonExit before(Connector connector, GqPaths paths, long timeoutMillis) {
    return new DaemonExit(connector, paths, LockProbe.holder(paths.lockFile()), timeoutMillis);
  }

  /** Waits until the socket refuses, so that a start right after works (the daemon may still be closing). */
  private void awaitSocketClosed() throws ClientFailure {
    long deadline = System.nanoTime() + STOP_TIMEOUT_MILLIS * 1_000_000L;
    while (connector.answers()) {
      if (System.nanoTime() > deadline) {
        throw new ClientFailure("the daemon still accepts connections " + STOP_TIMEOUT_MILLIS / 1000
            + " s after stopping; see " + paths.daemonLog());
      }
      DaemonLauncher.sleep(20);
    }
  }

  /**
   * Waits until the socket refuses, the lock is let go and the process has exited; {@code then}
   * ends the line said when that takes longer than the bound (normally {@link #EXIT_TIMEOUT_MILLIS}).
   */
  void awaitExited(String then) throws ClientFailure {
    awaitSocketClosed();
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (holdsLock() || (pid > 0 && running(pid, Path.of("/proc")))) {
      if (System.nanoTime() > deadline) {
        String who = pid > 0 ? "the daemon (pid " + pid + ")" : "the daemon";
        throw new ClientFailure(who + " has not exited " + timeoutMillis / 1000 + " s after it was asked to stop" + then
            + "; see " + paths.daemonLog());
      }
      DaemonLauncher.sleep(20);
    }
  }

  /** Whether the stopping daemon still holds its lock: the process that held it, or any when that was unknown. */
  private boolean holdsLock() {
    long now = LockProbe.holder(paths.lockFile());
    return pid > 0 ? now == pid : now != 0;
  }

  /** Whether the process exists and has not ended: a zombie (exited, its parent not told yet) has ended. */
  static boolean running(long pid, Path proc) {
    try {
      byte[] raw = Files.readAllBytes(proc.resolve(Long.toString(pid)).resolve("stat"));
      String stat = new String(raw, StandardCharsets.ISO_8859_1);
      int close = stat.lastIndexOf(')');
      return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}

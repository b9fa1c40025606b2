package dev.gq.client;

import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.nio.channels.ByteChannel;
import java.nio.file.Path;

/**
 * Tells a daemon that is slow or silent from one that no longer answers (stopped with SIGSTOP,
 * hung). While the client waits for the daemon, silence is normal ({@code gq wait} hears nothing
 * until its job ends); after half of {@link #ENV_TIMEOUT} seconds of it the watchdog pings the
 * daemon on a second connection. A pong restarts the count; no pong within the other half ends the
 * wait: the watchdog shuts the connection, and {@link #verdict()} says why in one line. A thread of
 * its own, since the client's reads block.
 */
final class Watchdog extends Thread {
  /** Seconds the client waits for a daemon that shows no sign of life. */
  static final String ENV_TIMEOUT = "GQ_ANSWER_TIMEOUT";
  static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

  private final Connector connector;
  private final Path daemonLog;
  private final long halfMillis;
  private volatile ByteChannel channel;
  private volatile long waitingSince;
  private volatile long epoch;
  private volatile String verdict;

  Watchdog(Connector connector, Path daemonLog, long timeoutMillis) {
    super("gq-watchdog");
    setDaemon(true);
    this.connector = connector;
    this.daemonLog = daemonLog;
    this.halfMillis = Math.max(1, timeoutMillis / 2);
  }

  /** The timeout from the environment's {@value #ENV_TIMEOUT} (whole seconds), else the default. */
  static long timeoutMillis(String seconds) {
    if (seconds == null || seconds.isEmpty() || seconds.length() > 6) return DEFAULT_TIMEOUT_MILLIS;
    long v = 0;
    for (int i = 0; i < seconds.length(); i++) {
      char c = seconds.charAt(i);
      if (c < '0' || c > '9') return DEFAULT_TIMEOUT_MILLIS;
      v = v * 10 + (c - '0');
    }
    return v == 0 ? DEFAULT_TIMEOUT_MILLIS : v * 1000;
  }

  /** The client now waits for the daemon on {@code ch}. */
  void waiting(ByteChannel ch) {
    channel = ch;
    epoch++;
    waitingSince = System.nanoTime();
  }

  /** The daemon answered (or the client now waits for something else). */
  void answered() {
    epoch++;
    waitingSince = 0;
  }

  /** Why the connection was shut: the daemon did not answer; null while it has not happened. */
  String verdict() {
    return verdict;
  }

  @Override
  public void run() {
    while (!isInterrupted()) {
      DaemonLauncher.sleep(Math.min(halfMillis, 250));
      long since = waitingSince;
      long seen = epoch;
      if (since == 0 || System.nanoTime() - since < halfMillis * 1_000_000L) continue;
      if (answersPing()) {
        if (epoch == seen) waitingSince = System.nanoTime();
        continue;
      }
      if (epoch != seen) continue;
      verdict = "the daemon did not answer for " + (2 * halfMillis + 500) / 1000 + " s, nor a ping on a second"
          + " connection; it may be stopped (see 'gq daemon status' and " + daemonLog + "; 'kill -CONT PID' resumes a"
          + " stopped one); raise " + ENV_TIMEOUT + " (seconds) to wait longer";
      shut(channel);
      return;
    }
  }

  /** Whether a ping on a new connection gets an answer within half the timeout. */
  private boolean answersPing() {
    Probe probe = new Probe(connector);
    probe.start();
    try {
      probe.join(halfMillis);
    } catch (InterruptedException e) {
      return true;
    }
    if (!probe.answered) shut(probe.channel);
    return probe.answered;
  }

  /** Wakes a read blocked on {@code ch}: it then sees the end of the stream. */
  static void shut(ByteChannel ch) {
    if (ch == null) return;
    try {
      if (ch instanceof NativeSocket n) n.shutdown();
      else ch.close();
    } catch (IOException ignored) {
      // already closed: the read has ended anyway
    }
  }

  /** One ping on a connection of its own. */
  private static final class Probe extends Thread {
    private final Connector connector;
    volatile ByteChannel channel;
    volatile boolean answered;

    Probe(Connector connector) {
      super("gq-ping");
      setDaemon(true);
      this.connector = connector;
    }

    @Override
    public void run() {
      try {
        channel = connector.connect();
        if (channel == null) return;
        new LineWriter(channel).write(new ClientRequest.Ping().toJson());
        answered = new LineReader(channel).readLine() != null;
      } catch (ClientFailure | IOException e) {
        answered = false;
      } finally {
        if (channel != null) {
          try {
            channel.close();
          } catch (IOException ignored) {
            // a probe
          }
        }
      }
    }
  }
}

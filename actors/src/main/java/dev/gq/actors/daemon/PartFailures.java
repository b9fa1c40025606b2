package dev.gq.actors.daemon;

import dev.gq.actors.health.PartHealth;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * The daemon's side of its parts' health: the lines `gq daemon status` shows (each part's, and why
 * the daemon before this one stopped, read from {@link StopNote} at start), and what happens when
 * a part fails for good. During start-up the start fails with the reason; once the daemon serves,
 * the failure is logged in one line, kept for the next daemon, and the daemon is stopped with a
 * failure status, so that it never answers requests while no longer doing its work. A Scheduler that
 * cannot replay its events stops the start too ({@link #replayFailed}).
 */
final class PartFailures {
  private final Path dataDir;
  private final PartHealth health;
  private final String previousStop;
  private final Runnable stopDaemon;
  private final CompletableFuture<String> duringStart = new CompletableFuture<>();
  private final CompletableFuture<Throwable> replayFailure = new CompletableFuture<>();
  private volatile String failure;
  private volatile boolean serving;
  /** The daemon's log. */
  private final Logger log;

  private PartFailures(Path dataDir, PartHealth health, String previousStop, Runnable stopDaemon, Logger log) {
    this.log = log;
    this.dataDir = dataDir;
    this.health = health;
    this.previousStop = previousStop;
    this.stopDaemon = stopDaemon;
  }

  /** Takes the note the last daemon left in {@code dataDir}, logging it to {@code log}, the daemon's. */
  static PartFailures open(Path dataDir, Clock clock, Runnable stopDaemon, Logger log) {
    String previous = StopNote.take(dataDir);
    if (previous != null) log.warn("{}", previous);
    return new PartFailures(dataDir, new PartHealth(clock), previous, stopDaemon, log);
  }

  PartHealth health() {
    return health;
  }

  /** Why the daemon before this one stopped, or null. */
  String previousStop() {
    return previousStop;
  }

  /** Completes with the reason when a part fails for good during start-up. */
  CompletableFuture<String> duringStart() {
    return duringStart;
  }

  /** The Scheduler could not replay its events, or start-up must not go on ({@link LostHistory.Refused}). */
  void replayFailed(Throwable cause) {
    replayFailure.complete(cause);
  }

  /** Completes with the cause when the Scheduler could not replay its events. */
  CompletableFuture<Throwable> replayFailure() {
    return replayFailure;
  }

  /** Start-up is over; throws when a part failed for good during it. */
  void serving() throws IOException {
    serving = true;
    if (failure != null) throw new IOException(failure);
  }

  /** A part failed for good ({@code why}: one line naming it). */
  void failed(String why) {
    synchronized (this) {
      if (failure != null) return;
      failure = why;
    }
    duringStart.complete(why);
    if (!serving) return;
    log.error("gq daemon: stopping because {}; running jobs keep running, and the next gq command starts the daemon again", why);
    try {
      StopNote.write(dataDir, why, Instant.now());
    } catch (IOException | RuntimeException e) {
      log.warn("cannot keep the reason for the next daemon in {}: {}", dataDir.resolve(StopNote.FILE), e.getMessage());
    }
    stopDaemon.run();
  }

  /** Why the daemon stops after a part failed for good, or null. */
  String failure() {
    return failure;
  }

  /** The parts' lines for `gq daemon status`, and the previous daemon's failure when there was one. */
  List<String> lines() {
    Instant now = health.now();
    List<String> lines = new ArrayList<>(health.status().stream().map(p -> p.line(now)).toList());
    if (previousStop != null) lines.add(previousStop);
    return lines;
  }
}

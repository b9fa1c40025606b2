package dev.gq.actors.runner;

import dev.gq.core.lease.LeaseHolder;
import dev.gq.protocol.GqPaths;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * How every runner is set up, built once when the daemon starts: where the data directory keeps each
 * job's exit record and progress file, the grace between SIGTERM and SIGKILL (GQ_CANCEL_GRACE_MS), how
 * often a job's processes are looked at (GQ_LIVENESS_POLL_MS), the memory kept free on a shared GPU
 * (GQ_SHARE_HEADROOM, MiB; a job shared by {@code --per-gpu K} alone learns its share from it), this
 * gq instance's name in the machine-wide GPU leases, and the clock time limits are counted on.
 */
public record RunnerSettings(GqPaths paths, Duration cancelGrace, Duration livenessPoll, long shareHeadroomMiB,
    LeaseHolder.Instance self, Clock clock) {

  /** Where job {@code id}'s shim writes its exit record. */
  public Path exitFile(long id) {
    return paths.exitFile(id);
  }

  /** Where job {@code id} may write {@code current total} ({@code $GQ_PROGRESS_FILE}). */
  Path progressFile(long id) {
    return paths.progressFile(id);
  }
}

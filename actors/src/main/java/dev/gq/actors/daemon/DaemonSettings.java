package dev.gq.actors.daemon;

import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.runner.RunnerSettings;
import dev.gq.actors.scheduler.SchedulerSettings;
import dev.gq.core.lease.LeaseHolder;
import java.time.Clock;

/**
 * How the children are set up, built once when the daemon starts: the daemon's configuration, the
 * Scheduler's and the runners' settings taken from it, the restart back-off, the failures tests
 * inject, and the job files found at start-up.
 */
record DaemonSettings(DaemonConfig cfg, SchedulerSettings scheduling, RunnerSettings running, Supervision.Backoff backoff,
    Faults faults, JobFileScan files) {

  /** The settings of a daemon configured by {@code cfg}, whose instance is {@code self} in the GPU leases. */
  static DaemonSettings of(DaemonConfig cfg, JobFileScan files, Faults faults, LeaseHolder.Instance self, Clock clock) {
    var scheduling = new SchedulerSettings(clock, cfg.paths(), cfg.snapshotEvery(), files.highestId(), cfg.failFast(),
        cfg.gatherAfter(), cfg.idleAfter(), cfg.maxCpuJobs(), cfg.shareHeadroomMiB());
    var running = new RunnerSettings(cfg.paths(), cfg.cancelGrace(), cfg.livenessPoll(), cfg.shareHeadroomMiB(), self, clock);
    return new DaemonSettings(cfg, scheduling, running, Supervision.Backoff.DEFAULT, faults, files);
  }
}

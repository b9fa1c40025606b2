package dev.gq.actors.runner;

import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.TimeLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A job's time limit as its runner watches it: counted from the job's start (from the runner's own
 * start for a job that has none), so one already passed while the daemon was down is reached at once.
 * The timer waits at most {@link TimeLimits#LONGEST_WAIT} and is armed again when it fires early, so no
 * limit, however far, overflows it.
 */
final class LimitWatch {
  private final Job job;
  private final Clock clock;
  private final Instant runnerStart;

  LimitWatch(Job job, Clock clock) {
    this.job = job;
    this.clock = clock;
    this.runnerStart = clock.instant();
  }

  /** How long to wait before looking again; null when the job has no limit. */
  Duration untilNextLook() {
    Duration limit = job.spec().timeLimit();
    return limit == null ? null : TimeLimits.wait(start(), limit, clock.instant());
  }

  boolean reached() {
    return TimeLimits.reached(start(), job.spec().timeLimit(), clock.instant());
  }

  /** The limit as the log says it. */
  String shown() {
    return Durations.format(job.spec().timeLimit());
  }

  private Instant start() {
    return job.startTime() != null ? job.startTime() : runnerStart;
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.alloc.PlanRules;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.protocol.GqPaths;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * How the Scheduler is set up, built once when the daemon starts: the clock decisions read, where
 * the data lives (job logs, the journal named in a refused write), how often a snapshot is taken,
 * the highest job id with files on disk at start-up (no id up to it is issued again), when a group is
 * held after quick failures (GQ_FAIL_FAST_COUNT, GQ_FAIL_FAST_SECONDS), how long the first job that
 * does not fit waits before GPUs gather for it (GQ_GATHER_AFTER_SECONDS), how long a running job's
 * GPUs show 0 % before it is idle (GQ_IDLE_AFTER_SECONDS; zero: never), how many CPU-only jobs may be
 * active at once (GQ_MAX_CPU_JOBS) and the memory kept free on a shared GPU (GQ_SHARE_HEADROOM, MiB).
 */
public record SchedulerSettings(Clock clock, GqPaths paths, int snapshotEvery, long highestJobFileId, FailFast failFast,
    Duration gatherAfter, Duration idleAfter, int maxCpuJobs, long shareHeadroomMiB) {

  /** The defaults of every rule, with {@code clock}, {@code paths} and a snapshot every {@code snapshotEvery} events. */
  public static SchedulerSettings defaults(Clock clock, GqPaths paths, int snapshotEvery) {
    return new SchedulerSettings(clock, paths, snapshotEvery, 0, FailFast.DEFAULT, PlanRules.GATHER_AFTER,
        DecisionContext.IDLE_AFTER, 64, PlanRules.HEADROOM_MIB);
  }

  /** Where job {@code jobId}'s output goes. */
  String logPath(long jobId) {
    return paths.jobLog(jobId).toString();
  }

  /** The journal's file, named in the line that refuses a request whose write failed. */
  Path journal() {
    return paths.database();
  }
}

package dev.gq.core.schedule;

import dev.gq.core.alloc.PlanRules;
import dev.gq.core.fair.FairView;
import dev.gq.core.ledger.FailFast;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * What a decision takes from outside the ledger and the GPU registry: the time of day, the monotonic
 * moment ({@code nanos}, {@code System.nanoTime()}), a fresh GQ_JOB_TAG per job, where each job's log
 * goes, and the configured bounds (fail-fast rule, how long before GPUs gather for a job that does
 * not fit, how many CPU-only jobs may be active at once, the memory kept free on a shared GPU, how
 * long a running job's GPUs show 0 % utilisation before it is idle: zero never), and what the daemon last
 * read of the shared machine (the policy, everyone's demand: {@link dev.gq.core.fair.FairView}).
 */
public record DecisionContext(Instant now, long nanos, Supplier<String> tags, LongFunction<String> logPaths,
    FailFast failFast, Duration gatherAfter, int maxCpuJobs, long shareHeadroomMiB, Duration idleAfter,
    FairView fair) {

  /** How long GPUs show 0 % before their job is idle, unless configured. */
  public static final Duration IDLE_AFTER = Duration.ofMinutes(30);

  public DecisionContext {
    fair = fair == null ? FairView.NONE : fair;
  }

  /** On a machine of its own: no machine policy, nobody else's demand. */
  public DecisionContext(Instant now, long nanos, Supplier<String> tags, LongFunction<String> logPaths,
      FailFast failFast, Duration gatherAfter, int maxCpuJobs, long shareHeadroomMiB, Duration idleAfter) {
    this(now, nanos, tags, logPaths, failFast, gatherAfter, maxCpuJobs, shareHeadroomMiB, idleAfter, null);
  }

  /** With the default headroom on shared GPUs and the default idle threshold. */
  public DecisionContext(Instant now, long nanos, Supplier<String> tags, LongFunction<String> logPaths,
      FailFast failFast, Duration gatherAfter, int maxCpuJobs) {
    this(now, nanos, tags, logPaths, failFast, gatherAfter, maxCpuJobs, PlanRules.HEADROOM_MIB, IDLE_AFTER);
  }
}

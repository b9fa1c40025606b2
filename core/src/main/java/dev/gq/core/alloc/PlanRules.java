package dev.gq.core.alloc;

import java.time.Duration;
import java.time.Instant;

/**
 * The bounds a plan keeps besides the GPUs: the moment of the plan and how long the first job that
 * does not fit may be passed over before GPUs gather for it ({@code gatherAfter}), and how many more
 * CPU-only jobs may start now ({@code cpuRoom}: the cap on CPU-only jobs at once less those active).
 */
public record PlanRules(Instant now, Duration gatherAfter, int cpuRoom) {

  /** No bounds: unbounded backfill, any number of CPU-only jobs at once. */
  public static final PlanRules NONE = new PlanRules(Instant.MAX, Allocator.GATHER_AFTER, Integer.MAX_VALUE);
}

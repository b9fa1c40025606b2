package dev.gq.core.schedule;

import java.util.Set;

/**
 * What the Scheduler knows besides its persisted ledger, rebuilt at each start: the GPU registry,
 * whether start-up reconciliation is over ({@code ready}: nothing is placed before), whether a
 * reconciliation of orphaned jobs is under way, and the jobs whose runner saw their processes end
 * but has not reported the end yet ({@code ending}: each may still be a failure of its group), and
 * the jobs in a run of failed starts ({@code backoff}: each waits before it is placed again).
 */
public record SchedulerState(GpuRegistry gpus, boolean ready, boolean reconciling, Set<Long> ending,
    StartBackoff backoff) {

  public SchedulerState {
    ending = Set.copyOf(ending);
    backoff = backoff == null ? StartBackoff.NONE : backoff;
  }

  public SchedulerState(GpuRegistry gpus, boolean ready, boolean reconciling, Set<Long> ending) {
    this(gpus, ready, reconciling, ending, StartBackoff.NONE);
  }

  /** At start, before any reading and before reconciliation. */
  public static SchedulerState initial() {
    return new SchedulerState(GpuRegistry.empty(), false, false, Set.of());
  }

  SchedulerState with(GpuRegistry g) {
    return g == gpus ? this : new SchedulerState(g, ready, reconciling, ending, backoff);
  }

  SchedulerState withEnding(Set<Long> e) {
    return new SchedulerState(gpus, ready, reconciling, e, backoff);
  }

  SchedulerState withBackoff(StartBackoff b) {
    return b == backoff ? this : new SchedulerState(gpus, ready, reconciling, ending, b);
  }
}

package dev.gq.core.schedule;

import dev.gq.core.idle.IdleJobs;
import java.util.Set;

/**
 * What the Scheduler knows besides its persisted ledger, rebuilt at each start: the GPU registry,
 * whether start-up reconciliation is over ({@code ready}: nothing is placed before), whether a
 * reconciliation of orphaned jobs is under way, and the jobs whose runner saw their processes end
 * but has not reported the end yet ({@code ending}: each may still be a failure of its group), and
 * the jobs in a run of failed starts ({@code backoff}: each waits before it is placed again), and the
 * running jobs whose GPUs show no utilisation ({@code idle}).
 */
public record SchedulerState(GpuRegistry gpus, boolean ready, boolean reconciling, Set<Long> ending,
    StartBackoff backoff, IdleJobs idle) {

  public SchedulerState {
    ending = Set.copyOf(ending);
    backoff = backoff == null ? StartBackoff.NONE : backoff;
    idle = idle == null ? IdleJobs.NONE : idle;
  }

  public SchedulerState(GpuRegistry gpus, boolean ready, boolean reconciling, Set<Long> ending, StartBackoff backoff) {
    this(gpus, ready, reconciling, ending, backoff, IdleJobs.NONE);
  }

  public SchedulerState(GpuRegistry gpus, boolean ready, boolean reconciling, Set<Long> ending) {
    this(gpus, ready, reconciling, ending, StartBackoff.NONE);
  }

  /** At start, before any reading and before reconciliation. */
  public static SchedulerState initial() {
    return new SchedulerState(GpuRegistry.empty(), false, false, Set.of());
  }

  SchedulerState with(GpuRegistry g) {
    return g == gpus ? this : new SchedulerState(g, ready, reconciling, ending, backoff, idle);
  }

  SchedulerState withEnding(Set<Long> e) {
    return new SchedulerState(gpus, ready, reconciling, e, backoff, idle);
  }

  SchedulerState withBackoff(StartBackoff b) {
    return b == backoff ? this : new SchedulerState(gpus, ready, reconciling, ending, b, idle);
  }

  SchedulerState withIdle(IdleJobs i) {
    return i == idle ? this : new SchedulerState(gpus, ready, reconciling, ending, backoff, i);
  }
}

package dev.gq.actors.runner;

import dev.gq.core.proc.ProcessTable;

/**
 * What every runner is made with: its settings, built once when the daemon starts, and the effects
 * it works through. The Scheduler's effects hand both to each runner they spawn.
 */
public record RunnerDeps(RunnerSettings settings, RunnerEffects effects) {

  /** {@code procs} with the scan of every process's job tag at a job's end shared between runners ({@link SharedTagScans}). */
  public static ProcessTable sharedScans(ProcessTable procs) {
    return SharedTagScans.of(procs);
  }
}

package dev.gq.core.report;

import dev.gq.core.gpu.GpuState;

/**
 * What a GPU was doing, coarsely, as the daemon records it over time (see {@link GpuSpan}): given to
 * gq's jobs, taken by an outside process (or another gq's job), idle (free or drained: nobody
 * computing on it), or unknown (the reading failed or did not decide). Coarse on purpose: a GPU whose
 * jobs follow each other keeps one span, not one per state a job passes through.
 */
public enum GpuUse {
  JOBS, OUTSIDE, IDLE, UNKNOWN;

  public static GpuUse of(GpuState s) {
    return switch (s) {
      case RESERVED, RUNNING, SHARED -> JOBS;
      case EXTERNAL -> OUTSIDE;
      case FREE, DRAINED -> IDLE;
      case UNKNOWN -> UNKNOWN;
    };
  }
}

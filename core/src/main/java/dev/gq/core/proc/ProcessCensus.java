package dev.gq.core.proc;

import java.util.Set;

/**
 * Every PID that /proc showed (zombies included) at one moment, with that moment on the JVM's
 * monotonic clock ({@code System.nanoTime()}, compare by subtraction). A runner takes one when it
 * finds its job's processes gone; the Scheduler uses it to tell which processes of an older GPU
 * reading have ended since.
 */
public record ProcessCensus(long takenNanos, Set<Long> pids) {
  public ProcessCensus {
    pids = Set.copyOf(pids);
  }

  /** Whether this census was taken after the moment {@code nanos}. */
  public boolean takenAfter(long nanos) {
    return takenNanos - nanos > 0;
  }
}

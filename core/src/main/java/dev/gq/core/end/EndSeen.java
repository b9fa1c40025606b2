package dev.gq.core.end;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.Preemption;

/**
 * What a runner saw of its job's end, and nothing worded: the exit record the shim wrote (null: none
 * could be read; a command that could not be run at all is told as the shim tells it, an
 * {@code exec-error} record); the status the shim itself exited with (null: unknown); the disk
 * holding the job's files when it was full, with its free bytes (null: it had room); whether
 * the runner stopped the job at its time limit; and the preemption it carried out (null: none) with
 * what it found when the job outlived the preemption's grace (null: it stopped in time). The
 * Scheduler's decision words the end from it ({@link EndReasons}, {@link EndEvents}).
 */
public record EndSeen(ExitRecord record, Integer shimStatus, DiskFull diskFull, boolean timedOut, Preemption preempted,
    PreemptIgnored ignored) {

  /** The end of a job that left no exit record and nothing else to say (an adopted process, say). */
  public static final EndSeen NOTHING = new EndSeen(null, null, null, false, null, null);

  /** An end with an exit record of {@code exitCode} ({@code exit N}; null: no record). */
  public static EndSeen exited(Integer exitCode) {
    return new EndSeen(exitCode == null ? null : ExitRecord.exited(exitCode), null, null, false, null, null);
  }

  /** A command that could not be run: {@code why}, with the status a shell reports for it ({@code exitCode}). */
  public static EndSeen couldNotRun(int exitCode, String why) {
    return new EndSeen(new ExitRecord(ExitRecord.Kind.EXEC_FAILED, exitCode, why), null, null, false, null, null);
  }

  /** The same end, stopped by the runner at the job's time limit. */
  public EndSeen atTimeLimit() {
    return new EndSeen(record, shimStatus, diskFull, true, preempted, ignored);
  }

  /** The same end, of a job the runner was preempting as {@code p} says ({@code ignored}: null when it stopped in time). */
  public EndSeen preempted(Preemption p, PreemptIgnored ignored) {
    return new EndSeen(record, shimStatus, diskFull, timedOut, p, ignored);
  }

  /**
   * The exit status the end records: the record's; without one, the status the shim exited with when a
   * full disk kept it from writing the record (but 127, which the shim also returns when it could not
   * wait for the job); else none.
   */
  public Integer exitCode() {
    if (record != null) return record.exitCode();
    return shimStandsIn() ? shimStatus : null;
  }

  /** Whether the shim's own status stands in for a record a full disk kept it from writing. */
  boolean shimStandsIn() {
    return record == null && diskFull != null && shimStatus != null && shimStatus != 127;
  }

  /** Whether the job was stopped at its time limit (a preemption's stop is the preemption's, not the limit's). */
  public boolean stoppedAtLimit() {
    return timedOut && preempted == null;
  }
}

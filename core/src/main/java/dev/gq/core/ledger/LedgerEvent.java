package dev.gq.core.ledger;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobSpec;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.List;

/**
 * The facts the Scheduler persists, in the past tense. Every job-state change and every GPU
 * reservation is one of these; replaying them in order rebuilds the {@link Ledger}. Events outlive
 * the code that wrote them: add new types and fields, never change the meaning of old ones.
 */
public sealed interface LedgerEvent {

  long jobId();

  Instant at();

  /** A job entered the queue (WAITING). */
  record JobSubmitted(long jobId, JobSpec spec, String tag, String logPath, Long retryOf, Instant at)
      implements LedgerEvent {}

  /** WAITING → STARTING: the job holds these GPUs from now on. Persisted before anything is spawned. */
  record JobReserved(long jobId, List<GpuSlot> gpus, Instant at) implements LedgerEvent {
    public JobReserved {
      gpus = List.copyOf(gpus);
    }
  }

  /** STARTING → RUNNING: the shim runs; this is its identity. */
  record JobLaunched(long jobId, ProcessIdentity identity, Instant at) implements LedgerEvent {}

  /** STARTING → FAILED: nothing could be started. */
  record JobLaunchFailed(long jobId, String reason, Instant at) implements LedgerEvent {}

  /** STARTING/RUNNING → CANCELLING: the user asked; signals follow. */
  record JobCancelRequested(long jobId, Instant at) implements LedgerEvent {}

  /** WAITING → CANCELLED: removed from the queue before it started. */
  record JobCancelled(long jobId, String reason, Instant at) implements LedgerEvent {}

  /**
   * The job's processes are all gone. {@code exitCode} is the shim's record (128+N for signal N),
   * null when no exit record exists; {@code reason} explains a non-zero or missing code.
   * RUNNING → DONE or FAILED; CANCELLING → CANCELLED.
   */
  record JobExited(long jobId, Integer exitCode, String reason, Instant at) implements LedgerEvent {}

  /** → INTERRUPTED: the machine rebooted, or the job vanished leaving no exit status. */
  record JobInterrupted(long jobId, String reason, Instant at) implements LedgerEvent {}

  /** → ORPHANED: a GPU it holds is no longer present; its GPUs stay off-limits. */
  record JobOrphaned(long jobId, String reason, Instant at) implements LedgerEvent {}

  /** STARTING → WAITING: the daemon stopped before launching it and no process of it exists. */
  record JobRequeued(long jobId, String reason, Instant at) implements LedgerEvent {}
}

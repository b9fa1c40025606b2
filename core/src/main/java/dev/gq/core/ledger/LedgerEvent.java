package dev.gq.core.ledger;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobSpec;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The facts the Scheduler persists, in the past tense. Every job-state change and every GPU
 * reservation is one of these; replaying them in order rebuilds the {@link Ledger}. Events outlive
 * the code that wrote them: add new types and fields, never change the meaning of old ones.
 */
public sealed interface LedgerEvent {

  Instant at();

  /** An event about one job. */
  sealed interface JobEvent extends LedgerEvent {
    long jobId();
  }

  /**
   * A job entered the queue (WAITING). {@code retryOf} is the lineage root when it retries an
   * earlier job; {@code waitsFor} is its {@code after} list as resolved at submit (following each
   * lineage's newest attempt; an outcome already known when that job had ended). {@code sameAs},
   * when not null, names the earlier job whose stored command this one shares: an empty argv in
   * {@code spec} stands for that job's argv and an empty environment for its environment (an
   * automatic retry; the lines of a batch after its first, which share its environment). Events
   * stored before {@code waitsFor} or {@code sameAs} existed read back with none.
   */
  record JobSubmitted(long jobId, JobSpec spec, String tag, String logPath, Long retryOf, List<Prerequisite> waitsFor,
      Instant at, Long sameAs) implements JobEvent {
    public JobSubmitted {
      waitsFor = waitsFor == null ? List.of() : List.copyOf(waitsFor);
    }

    /** A submission that carries its whole command. */
    public JobSubmitted(long jobId, JobSpec spec, String tag, String logPath, Long retryOf, List<Prerequisite> waitsFor,
        Instant at) {
      this(jobId, spec, tag, logPath, retryOf, waitsFor, at, null);
    }

    /** A submission that waits for no job. */
    public JobSubmitted(long jobId, JobSpec spec, String tag, String logPath, Long retryOf, Instant at) {
      this(jobId, spec, tag, logPath, retryOf, List.of(), at);
    }

    /** The same submission sharing job {@code source}'s stored command: its spec keeps only what differs. */
    public JobSubmitted sharing(long source, JobSpec slim) {
      return new JobSubmitted(jobId, slim, tag, logPath, retryOf, waitsFor, at, source);
    }
  }

  /** WAITING → STARTING: the job holds these GPUs from now on. Persisted before anything is spawned. */
  record JobReserved(long jobId, List<GpuSlot> gpus, Instant at) implements JobEvent {
    public JobReserved {
      gpus = List.copyOf(gpus);
    }
  }

  /**
   * A process started by hand became a job, directly RUNNING on {@code gpus} (the GPUs where it or
   * its descendants compute): {@code identity} is the adopted process's ({@link ProcessIdentity#adopted}),
   * {@code startTime} when it really started, {@code logPath} the regular file its stdout goes to
   * (null when it is not one; gq never writes to it). Its exit status can never be known.
   */
  record JobAdopted(long jobId, JobSpec spec, String tag, String logPath, ProcessIdentity identity, List<GpuSlot> gpus,
      Instant startTime, Instant at) implements JobEvent {
    public JobAdopted {
      gpus = List.copyOf(gpus);
    }
  }

  /** STARTING → RUNNING: the shim runs; this is its identity. */
  record JobLaunched(long jobId, ProcessIdentity identity, Instant at) implements JobEvent {}

  /** STARTING → FAILED: nothing could be started. */
  record JobLaunchFailed(long jobId, String reason, Instant at) implements JobEvent {}

  /** STARTING/RUNNING → CANCELLING: the user asked; signals follow. */
  record JobCancelRequested(long jobId, Instant at) implements JobEvent {}

  /**
   * STARTING/RUNNING → PREEMPTING: the user asked the job to make room; it keeps its GPUs while
   * {@code signal} (to its main process, or to its group with {@code groupSignal}) lets it save, and
   * is stopped as a cancel stops a job once {@code grace} has passed. When it has stopped it ends
   * PREEMPTED; its GPUs then go to {@code forJob} (when not null and still waiting) in that same
   * write, and with {@code requeue} its resume joins the queue.
   */
  record JobPreemptRequested(long jobId, int signal, boolean groupSignal, Duration grace, Long forJob,
      boolean requeue, Instant at) implements JobEvent {
    public Preemption preemption() {
      return new Preemption(signal, groupSignal, grace, forJob, requeue, at);
    }
  }

  /** WAITING → CANCELLED: removed from the queue before it started. */
  record JobCancelled(long jobId, String reason, Instant at) implements JobEvent {}

  /**
   * The job's processes are all gone. {@code exitCode} is the shim's record (128+N for signal N),
   * null when no exit record exists; {@code reason} explains a non-zero or missing code.
   * RUNNING → DONE or FAILED; CANCELLING → CANCELLED; PREEMPTING → PREEMPTED. {@code pid}, when not null, is the pid the
   * shim wrote into its exit record, stored for a job closed from that record at start-up without
   * ever being recorded as launched, so the job still shows a pid. It is for display only, never a
   * verified identity: nothing signals it. Events stored before it existed read back with none.
   */
  record JobExited(long jobId, Integer exitCode, String reason, Instant at, Long pid) implements JobEvent {
    /** An end that names no pid (the job's launch recorded its identity, or none is known). */
    public JobExited(long jobId, Integer exitCode, String reason, Instant at) {
      this(jobId, exitCode, reason, at, null);
    }
  }

  /**
   * → TIMEOUT: the job ran past its time limit and was stopped (SIGTERM, then SIGKILL after the
   * grace period). {@code exitCode} is the shim's record if any; {@code reason} names the limit.
   */
  record JobTimedOut(long jobId, Integer exitCode, String reason, Instant at) implements JobEvent {}

  /** → INTERRUPTED: the machine rebooted, or the job vanished leaving no exit status. */
  record JobInterrupted(long jobId, String reason, Instant at) implements JobEvent {}

  /** → ORPHANED: a GPU it holds is no longer present; its GPUs stay off-limits. */
  record JobOrphaned(long jobId, String reason, Instant at) implements JobEvent {}

  /** STARTING → WAITING: the daemon stopped before launching it and no process of it exists. */
  record JobRequeued(long jobId, String reason, Instant at) implements JobEvent {}

  /** ORPHANED → RUNNING: every GPU it holds is present again and its processes live. */
  record JobRecovered(long jobId, Instant at) implements JobEvent {}

  /** A cluster job was accepted by Slurm's sbatch as {@code clusterId} (an array task: {@code ARRAY_TASK}); still WAITING. */
  record JobSentToCluster(long jobId, String clusterId, Instant at) implements JobEvent {}

  /** WAITING → RUNNING: Slurm started the cluster job on {@code node}. */
  record JobClusterStarted(long jobId, String node, Instant at) implements JobEvent {}

  /** The Slurm cluster of profile {@code profile} did not answer; its live jobs show UNKNOWN until {@link ClusterReachable}. */
  record ClusterUnreachable(String profile, String reason, Instant at) implements LedgerEvent {}

  /** The Slurm cluster of profile {@code profile} answers again. */
  record ClusterReachable(String profile, Instant at) implements LedgerEvent {}

  /**
   * The whole queue is held: no waiting job starts (running ones are untouched) until
   * {@link QueueResumed}. Stored under this name from before the hold had its word; a stored
   * event keeps its name.
   */
  record QueuePaused(Instant at) implements LedgerEvent {}

  /** The whole queue's hold is released (stored under its earlier name, as {@link QueuePaused}). */
  record QueueResumed(Instant at) implements LedgerEvent {}

  /** A group's waiting jobs stop starting: by the user, or automatically after quick failures. */
  record GroupHeld(String group, String reason, boolean automatic, Instant at) implements LedgerEvent {}

  /** A group's hold is lifted (by the user, or by a retry landing in it); its fail-fast streak starts again. */
  record GroupReleased(String group, Instant at) implements LedgerEvent {}

  /**
   * A waiting job was changed by the user: {@code gpus} and {@code priority} when not null, its time
   * limit when {@code timeLimitSet} ({@code timeLimit} null: none), and its environment: the
   * variables of {@code envUnset} removed, then those of {@code envSet} set.
   */
  record JobChanged(long jobId, Integer gpus, Integer priority, boolean timeLimitSet, Duration timeLimit,
      Map<String, String> envSet, List<String> envUnset, Instant at) implements JobEvent {
    public JobChanged {
      envSet = envSet == null ? Map.of() : Map.copyOf(envSet);
      envUnset = envUnset == null ? List.of() : List.copyOf(envUnset);
    }
  }

  /** The user held these waiting jobs ({@code held}) or released them: a held job does not start. */
  record JobsHeld(List<Long> jobIds, boolean held, Instant at) implements LedgerEvent {
    public JobsHeld {
      jobIds = List.copyOf(jobIds);
    }
  }

  /** At most {@code maxRunning} jobs of {@code group} are active at once from now on (null: no limit). */
  record GroupLimitSet(String group, Integer maxRunning, Instant at) implements LedgerEvent {}

  /**
   * The GPU jobs submitted to {@code group} from now on share their GPUs, at most {@code perGpu} a
   * GPU (null: each as it asks).
   */
  record GroupPerGpuSet(String group, Integer perGpu, Instant at) implements LedgerEvent {}

  /** GPU {@code uuid} gets no new job (a running one keeps it) until {@link GpuResumed}; {@code reason} says why. */
  record GpuDrained(String uuid, String reason, Instant at) implements LedgerEvent {}

  /**
   * Shared job {@code jobId} was seen using {@code usedMiB} of GPU {@code uuid} (index {@code
   * index}), more than the {@code declaredMiB} it declared: no more jobs go on that GPU while it
   * does, and its owner is told once. The job is never stopped for it.
   */
  record JobOverShare(long jobId, String uuid, int index, long usedMiB, long declaredMiB, Instant at) implements LedgerEvent {}

  /** GPU {@code uuid} may get new jobs again. */
  record GpuResumed(String uuid, Instant at) implements LedgerEvent {}

  /**
   * Job {@code jobId}'s GPUs have all shown 0 % utilisation since {@code since}, longer than the idle
   * threshold: a hint for its owner, told once per idle stretch. Changes nothing in the ledger.
   */
  record JobIdleNoted(long jobId, Instant since, Instant at) implements LedgerEvent {}

  /**
   * Job ids below {@code nextId} are not issued: files in logs/ or run/ already use them (the
   * history lost its last writes, or was restored from an older copy). Stored at start-up.
   */
  record JobIdsSkipped(long nextId, String reason, Instant at) implements LedgerEvent {}

  /** Ended jobs deleted from the history ('gq rm', 'gq clean'): the keys they held are free again. */
  record JobsRemoved(List<Long> jobIds, Instant at) implements LedgerEvent {
    public JobsRemoved {
      jobIds = List.copyOf(jobIds);
    }
  }
}

package dev.gq.core.job;

import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One job as gq knows it: the spec, where it stands, the GPUs it holds or held, and its leader's
 * identity once launched. Immutable; the Ledger replaces it on every event. {@code tag} is the
 * random GQ_JOB_TAG that marks the job's processes. Times are null until they happen.
 * {@code reportedPid} is the pid the shim wrote in its exit record, kept only for a job closed from
 * that record without its launch ever being recorded (no identity): for display, never for signals.
 */
public record Job(
    long id,
    JobSpec spec,
    JobState state,
    Instant submitTime,
    Instant startTime,
    Instant endTime,
    List<GpuSlot> gpus,
    ProcessIdentity identity,
    Integer exitCode,
    String logPath,
    String failureReason,
    String tag,
    Long retryOf,
    Long reportedPid,
    String clusterId) {

  public Job {
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
  }

  /** A job with no reported pid. */
  public Job(long id, JobSpec spec, JobState state, Instant submitTime, Instant startTime, Instant endTime,
      List<GpuSlot> gpus, ProcessIdentity identity, Integer exitCode, String logPath, String failureReason, String tag,
      Long retryOf) {
    this(id, spec, state, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag, retryOf,
        null, null);
  }

  /** A job without a Slurm id (on this machine, or not yet accepted by Slurm). */
  public Job(long id, JobSpec spec, JobState state, Instant submitTime, Instant startTime, Instant endTime,
      List<GpuSlot> gpus, ProcessIdentity identity, Integer exitCode, String logPath, String failureReason, String tag,
      Long retryOf, Long reportedPid) {
    this(id, spec, state, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag, retryOf,
        reportedPid, null);
  }

  /**
   * The pid to show: the launched identity's, else {@code reportedPid} (the pid the shim wrote in
   * its exit record, for a job closed from that record without its launch ever being recorded).
   * For display only: a reported pid is not a verified identity, and nothing may signal it.
   * ({@code clusterId}: the Slurm job id of a cluster job once Slurm accepted it; null otherwise.)
   */
  public Long pid() {
    return identity != null ? Long.valueOf(identity.pid()) : reportedPid;
  }

  /** The same ended job showing {@code pid}, the shim's reported pid, when it has no identity (display only). */
  public Job withReportedPid(Long pid) {
    if (identity != null || pid == null) return this;
    return new Job(id, spec, state, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag,
        retryOf, pid, clusterId);
  }

  /** Whether this job is a process started by hand and adopted ({@code gq adopt}): see {@link ProcessIdentity#adopted}. */
  public boolean adopted() {
    return identity != null && identity.adopted();
  }

  /** The id of the first attempt of this job's retry lineage: {@code retryOf}, or its own id. */
  public long lineage() {
    return retryOf != null ? retryOf : id;
  }

  public String displayName() {
    if (spec.name() != null) return spec.name();
    if (spec.argv().isEmpty()) return "job " + id;
    String first = spec.argv().get(0);
    int slash = first.lastIndexOf('/');
    return slash >= 0 ? first.substring(slash + 1) : first;
  }

  /** The same job with {@code s} as its spec. */
  public Job withSpec(JobSpec s) {
    return new Job(id, s, state, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag,
        retryOf, reportedPid, clusterId);
  }

  /**
   * The job as the daemon's memory keeps it while live: its spec without the command, and no log
   * path; both stay in the database (see {@link #withStored}). The working directory is interned:
   * the jobs of a sweep share one.
   */
  public Job withoutCommand() {
    JobSpec s = spec;
    String cwd = s.cwd() == null ? null : s.cwd().intern();
    if (s.hasCommand() || !s.env().isEmpty() || cwd != s.cwd())
      s = new JobSpec(List.of(), cwd, Map.of(), s.gpus(), s.name(), s.group(), s.key(), s.after(), s.retries(), s.timeLimit(),
          s.priority(), s.begin(), s.resumeArg(), s.resumeFrom(), s.cluster(), s.gpuNeed());
    return new Job(id, s, state, submitTime, startTime, endTime, gpus, identity, exitCode, null, failureReason, tag,
        retryOf, reportedPid, clusterId);
  }

  /** The same job with its whole spec and log path, as stored. */
  public Job withStored(JobSpec whole, String storedLogPath) {
    return new Job(id, whole, state, submitTime, startTime, endTime, gpus, identity, exitCode, storedLogPath, failureReason,
        tag, retryOf, reportedPid, clusterId);
  }

  public Job withState(JobState s) {
    return new Job(id, spec, s, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag,
        retryOf, reportedPid, clusterId);
  }

  public Job reserved(List<GpuSlot> slots, Instant at) {
    return new Job(id, spec, JobState.STARTING, submitTime, at, null, slots, null, null, logPath, null, tag, retryOf, null, clusterId);
  }

  public Job launched(ProcessIdentity who) {
    return new Job(id, spec, state.stopping() ? state : JobState.RUNNING, submitTime, startTime, null, gpus, who, null, logPath, null, tag, retryOf, null, clusterId);
  }

  /** The same job with the Slurm id {@code slurmId}. */
  public Job sentAs(String slurmId) {
    return new Job(id, spec, state, submitTime, startTime, endTime, gpus, identity, exitCode, logPath, failureReason, tag,
        retryOf, reportedPid, slurmId);
  }

  /** A cluster job Slurm started at {@code at} (one being stopped stays so). */
  public Job clusterStarted(Instant at) {
    return new Job(id, spec, state.stopping() ? state : JobState.RUNNING, submitTime, at, null, gpus, identity, null,
        logPath, null, tag, retryOf, null, clusterId);
  }

  public Job recovered() {
    return new Job(id, spec, JobState.RUNNING, submitTime, startTime, null, gpus, identity, null, logPath, null, tag, retryOf, null, clusterId);
  }

  public Job ended(JobState s, Integer code, String reason, Instant at) {
    return new Job(id, spec, s, submitTime, startTime, at, gpus, identity, code, logPath, reason, tag, retryOf, reportedPid, clusterId);
  }
}

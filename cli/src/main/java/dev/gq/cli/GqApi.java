package dev.gq.cli;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the command tree needs from the daemon. The daemon implements it over its actors; tests
 * implement it in memory. Calls block. A refused request throws {@link ApiException} whose message
 * is the one line to show the user.
 */
public interface GqApi {

  SubmitResult submit(JobSpec spec) throws ApiException;

  /** Jobs matching the query, newest (highest id) first. */
  List<Job> jobs(JobQuery query) throws ApiException;

  Optional<Job> job(long id) throws ApiException;

  /** Why each WAITING job waits, by job id (e.g. "needs 2 GPUs, 1 free"). */
  Map<Long, String> waitReasons() throws ApiException;

  GpuReport gpus() throws ApiException;

  /** Cancels the listed jobs; one outcome per id, in order. */
  List<CancelOutcome> cancel(List<Long> ids) throws ApiException;

  DaemonInfo daemonInfo() throws ApiException;

  /** Pauses the whole queue ({@code group} null) or holds one group; returns the line to show. */
  String pause(String group) throws ApiException;

  /** Resumes the queue ({@code group} null) or releases one group's hold; returns the line to show. */
  String resume(String group) throws ApiException;

  /** Asks the daemon to stop after this request; running jobs are left running. */
  void shutdown() throws ApiException;

  /**
   * Stored events with a sequence number above {@code afterSeq}, oldest first, at most
   * {@code limit}: only job {@code jobId}'s when not null, only those stored at or after
   * {@code since} when not null. A job's environment is never among the fields.
   */
  List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException;

  /** The sequence number to read {@link #events} after so that only the last {@code count} matching ones follow; 0 when there are no more. */
  long eventsTail(Long jobId, Instant since, int count) throws ApiException;

  /**
   * One event as the journal holds it: sequence number, when it was stored, its type (e.g.
   * {@code JobReserved}), its job (null for an event about the queue or a group), and its other fields, flat and snake_case, valued by strings,
   * numbers, booleans, lists or null.
   */
  record StoredEvent(long seq, Instant time, String type, Long jobId, Map<String, Object> fields) {}

  /** Result of a submit: the new job, or the job that already holds the key when skipped. */
  record SubmitResult(long jobId, boolean skipped, JobState state, String message) {}

  /** Selects jobs. Empty ranges/states mean "any"; null group means any; limit 0 means no limit. */
  record JobQuery(List<long[]> ranges, Set<JobState> states, String group, int limit) {}

  /** All GPUs classified now. {@code error} is set when the probe failed as a whole. */
  record GpuReport(List<GpuStatus> gpus, String probe, boolean fake, String error) {}

  record CancelOutcome(long id, Kind kind, String message) {
    public enum Kind { CANCELLED, STOPPING, ALREADY_CANCELLING, ALREADY_ENDED, UNKNOWN }
  }

  record DaemonInfo(
      long pid,
      String version,
      int protocol,
      String dataDir,
      String probe,
      boolean fake,
      String gpuError,
      int gpuCount,
      int running,
      int waiting,
      String warning) {}
}

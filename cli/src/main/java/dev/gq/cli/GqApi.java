package dev.gq.cli;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
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

  /** Asks the daemon to stop after this request; running jobs are left running. */
  void shutdown() throws ApiException;

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

package dev.gq.api;

import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.progress.Estimate;
import dev.gq.core.schedule.Preemptions;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the command tree needs from the daemon: the jobs, the queue and the groups here; the GPUs,
 * the shared machine and the daemon itself in {@link MachineApi}; what a long listing reads page by
 * page in {@link ListingApi}. The daemon implements it over its actors; tests implement it in
 * memory. Calls block. A refused request throws {@link ApiException} whose message is the one line
 * to show the user.
 */
public interface GqApi extends ApiReplies, MachineApi, ListingApi {

  /**
   * Submits one job. The spec's {@code after} ids must exist (refused otherwise); {@code retries}
   * is how many automatic retries a non-zero exit may use; {@code timeLimit} (null: none) stops
   * the job as TIMEOUT when it runs longer. {@code maxRunning} (null: none) caps the spec's group
   * ({@code --max-running}) in the same write. The answer says what holds the job.
   */
  SubmitResult submit(JobSpec spec, Integer maxRunning) throws ApiException;

  /** Submits one job, setting no cap. */
  default SubmitResult submit(JobSpec spec) throws ApiException {
    return submit(spec, null);
  }

  /**
   * Submits many jobs in one decision and one write: all or nothing. When any line is refused,
   * nothing is submitted and the {@link ApiException} names the first refused line ("line 12:
   * ..."). Otherwise one outcome per line, in order; a line whose key is already held is skipped
   * (its outcome says so) without refusing the others. {@code maxRunning} (null: none) caps {@code group},
   * the batch's group, in the same write.
   */
  List<BatchOutcome> submitBatch(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException;

  /** Submits many jobs, setting no cap. */
  default List<BatchOutcome> submitBatch(List<BatchLine> lines) throws ApiException {
    return submitBatch(lines, null, null);
  }

  /**
   * Retries ended jobs: each becomes a new WAITING job with the same command, directory,
   * environment, GPU count, name, group, key, dependencies, retries and time limit, whose
   * {@code retry_of} is the lineage root. {@code states} restricts which ended states are
   * retried (empty: every state in {@code Retries.RETRYABLE}). Ids that cannot be retried are
   * skipped with a reason (does not exist, still live, excluded state, already retried as job M,
   * working directory gone, key held by a live job). Releases the hold of every group a retry
   * lands in. One write for all.
   */
  RetryReport retry(List<Long> ids, Set<JobState> states) throws ApiException;

  /**
   * As {@link #retry(List, Set)} for a retry that names {@code group}: its fail-fast hold is
   * released even when none of {@code ids} (which may be empty) is retried, because their cells
   * were submitted again and wait in it. A hold the user set stays unless a retry lands in it.
   */
  default RetryReport retry(List<Long> ids, Set<JobState> states, String group) throws ApiException {
    return retry(ids, states);
  }

  /**
   * Preempts running jobs, all or none: each goes to PREEMPTING and keeps its GPUs while the signal
   * lets it save, and is stopped after the grace; one line per job, or the reason none is.
   */
  default List<String> preempt(Preemptions.PreemptAsk ask) throws ApiException {
    throw new ApiException("this daemon cannot preempt jobs; restart it with 'gq daemon restart'");
  }

  /**
   * Continues ended jobs (PREEMPTED above all) as new attempts of their lineages that resume from a
   * checkpoint: {@code from} (an absolute path) or, when null, the newest complete one when each
   * attempt starts. Skips as {@link #retry} does.
   */
  default ResumeReport resume(List<Long> ids, String from) throws ApiException {
    throw new ApiException("this daemon cannot resume jobs; restart it with 'gq daemon restart'");
  }

  /** Retries every INTERRUPTED job that is the newest attempt of its lineage (as {@link #retry}). */
  RetryReport recover() throws ApiException;

  /**
   * Every group that has jobs or a hold, sorted by name, with counts over each cell's newest
   * attempt: a job is replaced by a later retry of its lineage or a later job with its key.
   */
  List<GroupSummary> groups() throws ApiException;

  /**
   * Deletes ended jobs from the history with their logs and exit records, freeing their keys. All
   * or nothing: refused when an id does not exist or its job has not ended. Returns the ids removed.
   */
  List<Long> remove(List<Long> ids) throws ApiException;

  /**
   * Deletes every ended job that ended before {@code endedBefore} (only those in {@code states}
   * when not empty), with logs and exit records, freeing their keys. Returns how many were removed.
   */
  int clean(Instant endedBefore, Set<JobState> states) throws ApiException;

  /** Jobs matching the query, newest (highest id) first, without their environment (an empty map: no listing shows it). */
  List<Job> jobs(JobQuery query) throws ApiException;

  /**
   * As {@link #jobs}, but a row of the history that cannot be read is skipped and named in
   * {@link JobPage#unreadable()} instead of failing the whole list.
   */
  default JobPage jobPage(JobQuery query) throws ApiException {
    return new JobPage(jobs(query), List.of());
  }

  Optional<Job> job(long id) throws ApiException;

  /**
   * Opens a job's log at {@code path} for reading, without ever waiting on it (a named pipe put in
   * its place is refused, not waited on) and without following a symbolic link; empty when there
   * is no file. Refused ({@link ApiException}, one line naming the path) when it is not a regular
   * file.
   */
  Optional<FileChannel> openLog(Path path) throws ApiException, IOException;

  /** The newest attempt of job {@code id}'s retry lineage: the job itself until it is retried; empty when it does not exist. */
  Optional<Job> newestAttempt(long id) throws ApiException;

  /** How many jobs match the query (its limit ignored). */
  long count(JobQuery query) throws ApiException;

  /** One group's summary, as {@link #groups} gives it; empty when it has neither jobs nor a hold. */
  default Optional<GroupSummary> group(String name) throws ApiException {
    return groups().stream().filter(g -> g.group().equals(name)).findFirst();
  }

  /** The held groups and why each is held. */
  default Map<String, String> holds() throws ApiException {
    Map<String, String> out = new TreeMap<>();
    for (GroupSummary g : groups()) if (g.held()) out.put(g.group(), g.holdReason());
    return out;
  }

  /** The preemptions under way, by job id, as the scheduler has them now. */
  default Map<Long, Preemption> preemptions() throws ApiException {
    return Map.of();
  }

  /** Whether the whole queue is held, and each held group with the reason it is held, as the scheduler has them now. */
  QueueState queueState() throws ApiException;

  /** Why each WAITING job waits, by job id: briefly ("GPUs busy") and whole ("needs 2 GPUs, 1 free (GPU 0: job 4)"). */
  Map<Long, WaitReason> waitReasons() throws ApiException;

  /**
   * The running jobs whose GPUs have all shown 0 % utilisation longer than the daemon's idle
   * threshold, each with the moment they last did something. A hint: gq never stops a job for it.
   */
  default Map<Long, Instant> idleJobs() throws ApiException {
    return Map.of();
  }

  /**
   * How far each of the RUNNING jobs among {@code ids} has got and how long it has left, by job id;
   * a job that is not running, or whose files give no estimate, is absent. Every asked job's files
   * are read in one request.
   */
  default Map<Long, Estimate> progress(List<Long> ids) throws ApiException {
    return Map.of();
  }

  /**
   * Makes process {@code pid}, started by hand, a RUNNING job on the GPUs it and its descendants use
   * ({@code gq adopt}); refused with the one line to show when it cannot be the caller's job.
   */
  default AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    throw new ApiException("this daemon cannot adopt a process; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Cancels the listed jobs; one outcome per id, in order. */
  List<CancelOutcome> cancel(List<Long> ids) throws ApiException;

  /** Holds the whole queue ({@code group} null) or one group, so its waiting jobs do not start; returns the line to show. */
  String holdQueue(String group) throws ApiException;

  /** Caps how many jobs of {@code group} are active at once ({@code maxRunning} null: no cap); the line to show. */
  default String limitGroup(String group, Integer maxRunning) throws ApiException {
    throw new ApiException("this daemon cannot cap a group's jobs; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Makes {@code group}'s later GPU jobs share their GPUs, at most {@code perGpu} a GPU (null: as each asks); the line to show. */
  default String perGpuGroup(String group, Integer perGpu) throws ApiException {
    throw new ApiException("this daemon cannot make a group's jobs share GPUs; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Changes a waiting job's GPUs, priority or time limit; the line to show. */
  default String changeJob(long id, JobChanges.Change change) throws ApiException {
    throw new ApiException("this daemon cannot change a job; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Moves a waiting job to the front of the queue; the line to show. */
  default String toFront(long id) throws ApiException {
    throw new ApiException("this daemon cannot reorder jobs; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Holds ({@code held}) or releases waiting jobs; the line to show. */
  default String holdJobs(List<Long> ids, boolean held) throws ApiException {
    throw new ApiException("this daemon cannot hold single jobs; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /** Releases the hold on the whole queue ({@code group} null) or on one group; returns the line to show. */
  String releaseQueue(String group) throws ApiException;

  /**
   * Stored events with a sequence number above {@code afterSeq}, oldest first, at most
   * {@code limit}: only job {@code jobId}'s when not null, only those stored at or after
   * {@code since} when not null. A job's environment is never among the fields.
   */
  List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException;

  /** The sequence number to read {@link #events} after so that only the last {@code count} matching ones follow; 0 when there are no more. */
  long eventsTail(Long jobId, Instant since, int count) throws ApiException;

  /**
   * The live jobs as the scheduler holds them now, by ascending id, each without its command, log
   * path and environment (a listing that shows a job's name or command reads it with {@link #jobs}).
   * Nothing is read or decoded for it, so {@code gq top} and {@code gq web} can count and place a
   * long queue without listing it.
   */
  default Collection<Job> liveJobs() throws ApiException {
    List<Job> out = new ArrayList<>(jobs(new JobQuery(List.of(), JobState.live(), null, 0)));
    out.sort((a, b) -> Long.compare(a.id(), b.id()));
    return out;
  }

  /** Why each WAITING job among {@code ids} waits, as {@link #waitReasons()} says it, without planning more of the queue than needed. */
  default Map<Long, WaitReason> waitReasons(Collection<Long> ids) throws ApiException {
    if (ids.isEmpty()) return Map.of();
    Map<Long, WaitReason> all = waitReasons();
    Map<Long, WaitReason> out = new HashMap<>();
    for (Long id : ids) if (all.containsKey(id)) out.put(id, all.get(id));
    return out;
  }
}

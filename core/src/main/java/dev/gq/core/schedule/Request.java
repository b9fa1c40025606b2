package dev.gq.core.schedule;

import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.adopt.Adoption;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.cluster.ClusterObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.HistoryFact;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.Retries;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.recovery.RecoveryFacts;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the Scheduler decides on, as data: a user's request (answered with {@code R}, or refused
 * with one line) or a report from a runner, the GPU watcher or the reconciler (answered with nothing:
 * {@code R} is {@link Void}). Facts about ended jobs come with the requests that name them
 * ({@code facts}: read in the history by the caller). A report carries what was observed, never a
 * conclusion or a worded reason: {@link Decider#decide} is the one place each is decided and worded.
 */
public sealed interface Request<R> {

  /** Queues one job; {@code maxRunning} (null: none) caps its group in the same write. */
  record Submit(JobSpec spec, Map<Long, LineageFact> facts, Integer maxRunning) implements Request<Ledger.SubmitOutcome> {
    public Submit(JobSpec spec, Map<Long, LineageFact> facts) {
      this(spec, facts, null);
    }

    public Submit(JobSpec spec) {
      this(spec, Map.of());
    }
  }

  /**
   * Queues many jobs, all or nothing; {@code lines} numbers them for messages; {@code maxRunning} (null:
   * none) caps {@code group}, the batch's group, in the same write.
   */
  record SubmitBatch(List<JobSpec> specs, List<Integer> lines, Map<Long, LineageFact> facts, String group, Integer maxRunning)
      implements Request<List<Ledger.SubmitOutcome>> {
    public SubmitBatch(List<JobSpec> specs, List<Integer> lines, Map<Long, LineageFact> facts) {
      this(specs, lines, facts, null, null);
    }
  }

  /**
   * Retries the jobs {@code ids} names ({@code states} empty: every retryable state). {@code found}
   * holds each that exists, live or read from the history; {@code cwdGone} those whose working
   * directory is gone; {@code group}, when not null, is the group the retry names, whose fail-fast
   * hold it releases.
   */
  record Retry(List<Long> ids, Map<Long, Job> found, Set<Long> cwdGone, Set<JobState> states, String group,
      Map<Long, LineageFact> facts) implements Request<Retries.Outcome> {}

  /**
   * Removes exactly {@code ids} from the history, or nothing with the first reason why not
   * ({@code gq rm}); {@code facts} are what the history says of each. Answered with the ids removed.
   */
  record Remove(List<Long> ids, Map<Long, HistoryFact> facts) implements Request<List<Long>> {}

  /**
   * Removes the jobs of one page of the history that ended in {@code states} (any ended state when
   * empty) before {@code before} ({@code gq clean}). Answered with the ids removed.
   */
  record Clean(List<HistoryFact> page, Set<JobState> states, Instant before) implements Request<List<Long>> {}

  record Cancel(List<Long> ids) implements Request<List<CancelResult>> {}

  /** Preempts running jobs as {@link Preemptions} decides; answered with one line per job. */
  record Preempt(Preemptions.PreemptAsk ask) implements Request<List<String>> {}

  /**
   * Continues ended jobs from their checkpoints as new attempts of their lineages ({@code gq resume}):
   * as {@link Retry}, every new attempt resuming, from {@code from} (an absolute path) when not null.
   */
  record ResumeJobs(List<Long> ids, Map<Long, Job> found, Set<Long> cwdGone, String from, Map<Long, LineageFact> facts)
      implements Request<Retries.Outcome> {}

  /** Holds the whole queue ({@code group} null) or one group: its waiting jobs do not start; answered with the line to show. */
  record HoldQueue(String group) implements Request<String> {}

  /** Releases the hold on the whole queue ({@code group} null) or on one group. */
  record ReleaseQueue(String group) implements Request<String> {}

  /** Caps how many jobs of a group are active at once ({@code maxRunning} null: no cap). */
  record LimitGroup(String group, Integer maxRunning) implements Request<String> {}

  /** A group's later GPU jobs share their GPUs, at most {@code perGpu} a GPU ({@code perGpu} null: as each job asks). */
  record SharePerGpu(String group, Integer perGpu) implements Request<String> {}

  /** Changes a waiting job's GPUs, priority, time limit or environment. */
  record ChangeJob(long jobId, JobChanges.Change change) implements Request<String> {}

  /** Moves a waiting job to the front of the queue. */
  record ToFront(long jobId) implements Request<String> {}

  /** Holds ({@code held}) or releases waiting jobs. */
  record HoldJobs(List<Long> jobIds, boolean held) implements Request<String> {}

  /** Drains a GPU of new jobs, or gives it back ({@code reason} null). */
  record DrainGpu(String uuid, int index, String reason) implements Request<String> {}

  /** Makes a process started by hand a RUNNING job on the GPUs it uses ({@code gq adopt}). */
  record Adopt(Adoption.AdoptAsk ask) implements Request<AdoptOutcome> {}

  /**
   * A report: a fact from a runner, the GPU watcher, the reconciler or the cluster bridge, decided like
   * a request but answered to nobody.
   */
  sealed interface Fact extends Request<Void>
      permits Observed, Launched, LaunchFailed, LaunchDeferred, Ending, Ended, Reconciled, Drifted, ClusterObserved {}

  /** From the GPU watcher: a reading begun at {@code takenNanos} ({@code System.nanoTime()}, read by the caller). */
  record Observed(GpuObservation observation, String probe, boolean fake, long takenNanos) implements Fact {}

  /** From a runner: the job's processes run. */
  record Launched(long jobId, ProcessIdentity identity) implements Fact {}

  /** From a runner or the Slurm bridge: the job's processes could not be started ({@code problem}). */
  record LaunchFailed(long jobId, LaunchProblem problem) implements Fact {
    /** The problem's words, as the stored event keeps them. */
    public String reason() {
      return problem.text();
    }
  }

  /** From a runner: another gq took a GPU's lease between the reservation and the launch ({@code problem}). */
  record LaunchDeferred(long jobId, LaunchProblem problem) implements Fact {
    /** The problem's words, as the stored event keeps them. */
    public String reason() {
      return problem.text();
    }
  }

  /**
   * From a runner: the job's shim has exited ({@code gone}), so its end is on its way; or, after all,
   * a process of the job is left ({@code !gone}). Until its end is recorded, the job may be one more
   * failure of its group, which then starts no further job (fail-fast).
   */
  record Ending(long jobId, boolean gone) implements Fact {}

  /**
   * From a runner: every process of the job is gone (seen so at {@code endedNanos}, the runner's
   * {@code System.nanoTime()}, at {@code endedAt});
   * {@code seen}: what the runner saw of the end, which the decision words; {@code after} a GPU reading
   * begun at {@code afterNanos}, after that (null when there is none).
   */
  record Ended(long jobId, EndSeen seen, long endedNanos, GpuObservation after, long afterNanos, Instant endedAt)
      implements Fact {
    /** An end stamped when it is decided. */
    public Ended(long jobId, EndSeen seen, long endedNanos, GpuObservation after, long afterNanos) {
      this(jobId, seen, endedNanos, after, afterNanos, null);
    }
  }

  /**
   * From the reconciler: what it found of each job it checked, which the decision judges by
   * {@link dev.gq.core.recovery.Recovery}'s start-up rules. The first one after start-up also skips
   * job ids past {@code highestJobFileId}, the highest id with files on disk.
   */
  record Reconciled(Map<Long, RecoveryFacts> facts, long highestJobFileId) implements Fact {
    /** As the reconciler reports it: the Scheduler adds what it knows of the files on disk. */
    public Reconciled(Map<Long, RecoveryFacts> facts) {
      this(facts, 0);
    }
  }

  /**
   * From the reconciler's periodic pass: what it found of each job and the state it saw each in;
   * {@code watched} are the jobs a runner watches now (see {@link dev.gq.core.recovery.Drift}).
   */
  record Drifted(Map<Long, JobState> seen, Map<Long, RecoveryFacts> facts, Set<Long> watched) implements Fact {
    /** As the reconciler reports it: the Scheduler adds the jobs its runners watch. */
    public Drifted(Map<Long, JobState> seen, Map<Long, RecoveryFacts> facts) {
      this(seen, facts, Set.of());
    }
  }

  /** Slurm accepted these cluster jobs (gq id → Slurm id); the answer: the ids that no longer wait, to be cancelled there. */
  record ClusterSent(Map<Long, String> sent) implements Request<List<Long>> {}

  /** One look at a Slurm cluster. */
  record ClusterObserved(ClusterObservation observation) implements Fact {}
}

package dev.gq.api;

import dev.gq.core.alloc.PlanRules;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Queueing;
import dev.gq.core.schedule.FairWho;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the daemon's API answers with, as plain records. {@link GqApi} extends it, so each is
 * also named {@code GqApi.X}.
 */
public interface ApiReplies {
  /**
   * One event as the journal holds it: sequence number, when it was stored, its type (e.g.
   * {@code JobReserved}), its job (null for an event about the queue or a group), and its other fields, flat and snake_case, valued by strings,
   * numbers, booleans, lists or null.
   */
  record StoredEvent(long seq, Instant time, String type, Long jobId, Map<String, Object> fields) {}

  /**
   * Result of a submit: the new job, or the job that already holds the key when skipped; and what the
   * queue said of it in the same answer (held queue, held group, a cap set with it).
   */
  record SubmitResult(long jobId, boolean skipped, JobState state, String message, Queueing queueing) {
    public SubmitResult(long jobId, boolean skipped, JobState state, String message) {
      this(jobId, skipped, state, message, Queueing.FREE);
    }
  }

  /** One spec of a batch submit and the line of the input it came from (for messages). */
  record BatchLine(int line, JobSpec spec) {}

  /** What happened to one line of a batch: submitted as {@code jobId}, or skipped because the key's holder is {@code jobId}. */
  record BatchOutcome(int line, long jobId, boolean skipped, JobState state, String message, Queueing queueing) {
    public BatchOutcome(int line, long jobId, boolean skipped, JobState state, String message) {
      this(line, jobId, skipped, state, message, Queueing.FREE);
    }
  }

  /**
   * What a retry did: the new job of each retried original, the originals skipped and why (one
   * line each, e.g. "job 12 is RUNNING; only ended jobs are retried"), and the groups whose hold
   * was released.
   */
  record RetryReport(List<Retried> retried, List<RetrySkip> skipped, List<String> released) {}

  /** Original job {@code originalId} was retried as job {@code newId}. */
  record Retried(long originalId, long newId) {}

  /**
   * What {@code gq resume} did: the retry-like report, and for each new attempt what it resumes from
   * as seen now ({@code from}: new job id → the checkpoint given, the newest complete one now, or
   * null when there is none yet; the newest when the attempt starts is the one used).
   */
  record ResumeReport(RetryReport report, Map<Long, String> from, Map<Long, String> under) {}

  /** Job {@code id} was not retried, because {@code reason}. */
  record RetrySkip(long id, String reason) {}

  /**
   * One group: jobs per state counting only the newest attempt of each cell (absent states: 0),
   * how many jobs were replaced (by a retry or a later job with the same key), and its hold (reason null when not held; automatic when
   * fail-fast held it).
   */
  record GroupSummary(String group, Map<JobState, Integer> counts, int retried, String holdReason, boolean automatic,
      Integer maxRunning, Integer perGpu) {
    /** A group whose jobs share a GPU only when they ask ({@code perGpu} null). */
    public GroupSummary(String group, Map<JobState, Integer> counts, int retried, String holdReason, boolean automatic,
        Integer maxRunning) {
      this(group, counts, retried, holdReason, automatic, maxRunning, null);
    }

    /** A group without a cap on its jobs at once. */
    public GroupSummary(String group, Map<JobState, Integer> counts, int retried, String holdReason, boolean automatic) {
      this(group, counts, retried, holdReason, automatic, null);
    }

    public boolean held() {
      return holdReason != null;
    }
  }

  /**
   * The whole queue's hold ({@code gq hold --all}) and the groups' holds (group → why it is held),
   * which keep waiting jobs from starting.
   */
  record QueueState(boolean queueHeld, Map<String, String> holds, Map<String, Integer> maxRunning,
      Map<String, String> unreachable) {
    public QueueState {
      holds = Map.copyOf(holds);
      maxRunning = maxRunning == null ? Map.of() : Map.copyOf(maxRunning);
      unreachable = unreachable == null ? Map.of() : Map.copyOf(unreachable);
    }

    /** Every Slurm cluster answers. */
    public QueueState(boolean queueHeld, Map<String, String> holds, Map<String, Integer> maxRunning) {
      this(queueHeld, holds, maxRunning, Map.of());
    }

    /** No group capped. */
    public QueueState(boolean queueHeld, Map<String, String> holds) {
      this(queueHeld, holds, Map.of());
    }

    /** The hold reason of {@code group}, or null when it is not held (or null). */
    public String holdOf(String group) {
      return group == null ? null : holds.get(group);
    }
  }

  /**
   * A process a GPU lists, as {@code gq top} names it: its user, its command line (empty when /proc
   * does not show it), when it started (null when not known), and what the ownership rule reads of
   * it ({@code facts}: session, group, GQ_JOB_TAG, parents; null when /proc does not show it), so
   * that a process on a GPU that several shared jobs hold is put under the job that owns it.
   */
  record ProcessView(long pid, String user, String command, Instant started, ProcessFacts facts) {
    public ProcessView(long pid, String user, String command, Instant started) {
      this(pid, user, command, started, null);
    }
  }

  /**
   * The GPUs as classified now, with each GPU's figures from the latest reading ({@code figures}, by
   * UUID; absent when unknown), the problem of each GPU drained as unwell ({@code unwell}, by UUID)
   * and the memory kept free on a shared GPU ({@code shareHeadroomMiB}, GQ_SHARE_HEADROOM). {@code
   * error} is set when the probe failed as a whole.
   */
  record GpuReport(List<GpuStatus> gpus, String probe, boolean fake, String error,
      Map<String, GpuFigures> figures, Map<String, String> unwell,
      long shareHeadroomMiB) {
    public GpuReport {
      figures = figures == null ? Map.of() : Map.copyOf(figures);
      unwell = unwell == null ? Map.of() : Map.copyOf(unwell);
    }

    public GpuReport(List<GpuStatus> gpus, String probe, boolean fake, String error) {
      this(gpus, probe, fake, error, null, null, PlanRules.HEADROOM_MIB);
    }

    public GpuReport(List<GpuStatus> gpus, String probe, boolean fake, String error, long shareHeadroomMiB) {
      this(gpus, probe, fake, error, null, null, shareHeadroomMiB);
    }

    public GpuReport(List<GpuStatus> gpus, String probe, boolean fake, String error,
        Map<String, GpuFigures> figures, Map<String, String> unwell) {
      this(gpus, probe, fake, error, figures, unwell, PlanRules.HEADROOM_MIB);
    }

    /** The figures of GPU {@code uuid}, every one unknown when the reading gave none. */
    public GpuFigures figures(String uuid) {
      return figures.getOrDefault(uuid, GpuFigures.NONE);
    }
  }

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

  /**
   * The shared machine as this daemon sees it ({@code gq who}): the policy in force or the line why
   * none is ({@code policy}), {@code policyInForce} whether a policy file's rules apply, each user
   * holding or waiting for GPUs, the demand files not counted with why (name → reason), and
   * {@code demandProblem} why this user's demand cannot be published for the other users' gq to see
   * (null when it can), and each GPU an admin drained for every user's gq ({@code drains}: "GPU 0"
   * → by whom and why).
   */
  record WhoReport(String policy, boolean policyInForce, List<FairWho.Row> users,
      Map<String, String> ignored, List<BookingLine> bookings, String demandProblem,
      Map<String, String> drains) {
    public WhoReport {
      users = List.copyOf(users);
      ignored = Map.copyOf(ignored);
      bookings = bookings == null ? List.of() : List.copyOf(bookings);
      drains = drains == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(drains));
    }

    public WhoReport(String policy, boolean policyInForce, List<FairWho.Row> users,
        Map<String, String> ignored, List<BookingLine> bookings, String demandProblem) {
      this(policy, policyInForce, users, ignored, bookings, demandProblem, null);
    }

    public WhoReport(String policy, boolean policyInForce, List<FairWho.Row> users,
        Map<String, String> ignored, List<BookingLine> bookings) {
      this(policy, policyInForce, users, ignored, bookings, null);
    }

    public WhoReport(String policy, boolean policyInForce, List<FairWho.Row> users,
        Map<String, String> ignored) {
      this(policy, policyInForce, users, ignored, List.of());
    }
  }

  /** One booking in force: its id, booker, GPUs (index and UUID; index -1 when this machine shows no such GPU) and window. */
  record BookingLine(String id, String user, List<Integer> indices, List<String> uuids, Instant start,
      Instant end) {
    public BookingLine {
      indices = List.copyOf(indices);
      uuids = List.copyOf(uuids);
    }
  }
}

package dev.gq.core.job;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Why a waiting job does not start now, as the facts it was decided on: one record per kind of
 * wait, made where the decision is (the Ledger's holds and prerequisites, the Allocator, the fit of
 * a GPU need, the fail-fast gate, bookings, the fair turn, the start back-off, the Slurm cluster).
 * {@link WaitText} is the one place that words it, in two lengths: {@link #brief}, a few words for a
 * table column ("GPUs busy", "after 12", "group held"), and {@link #text}, the whole sentence with
 * what to do ({@code gq show}). {@link #code} names the kind as the brief does, for scripts
 * ({@code --json}); a reason that only adds to another (the GPUs a fair turn keeps) has the other's.
 */
public sealed interface WaitReason {
  Code code();

  /** A few words for a table column. */
  default String brief() {
    return WaitText.brief(this);
  }

  /** The whole sentence, with what to do. */
  default String text() {
    return WaitText.text(this);
  }

  /** The kinds of wait; {@link #key} is how {@code --json} writes one. */
  enum Code {
    HELD, QUEUE_HELD, GROUP_HELD, AFTER, AFTER_OK, AFTER_FAILED, AFTER_PREEMPTED, BEGINS, GROUP_AT_MAX, CPU_JOBS_AT_MAX,
    NO_GPU_READING, GPUS_BUSY, NO_GPU_FITS, TOO_FEW_FIT, FITTING_GPUS_BUSY, SHARED_GPUS_FULL, OVER_ITS_SHARE, GPUS_GATHER,
    GATHERING_FOR, FAIL_FAST_CHECK, BOOKED, USER_LIMIT, FAIR_SHARE, START_FAILED, TO_SLURM, SLURM_QUEUED;

    /** "gpus_busy". */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Held by the user ({@code gq hold}); {@code job} is the job itself. */
  record Held(long job) implements WaitReason {
    public Code code() { return Code.HELD; }
  }

  record QueueHeld() implements WaitReason {
    public Code code() { return Code.QUEUE_HELD; }
  }

  /** Its group is held, {@code why} being the hold's reason. */
  record GroupHeld(String group, String why) implements WaitReason {
    public Code code() { return Code.GROUP_HELD; }
  }

  /** It waits for job {@code job} to end ({@code --after}) or to succeed ({@code okOnly}, {@code --after-ok}). */
  record After(long job, boolean okOnly) implements WaitReason {
    public Code code() { return okOnly ? Code.AFTER_OK : Code.AFTER; }
  }

  /** Job {@code job}, which had to succeed first, ended {@code ended}. */
  record AfterFailed(long job, JobState ended) implements WaitReason {
    public Code code() { return Code.AFTER_FAILED; }
  }

  /** Job {@code job}, which it waits for, was preempted; it waits for the resume. */
  record AfterPreempted(long job) implements WaitReason {
    public Code code() { return Code.AFTER_PREEMPTED; }
  }

  /** It may not start before {@code begin} ({@code --begin}); {@code now}: the moment of the decision. */
  record Begins(Instant begin, Instant now) implements WaitReason {
    public Code code() { return Code.BEGINS; }
  }

  /** Its group has {@code maxRunning} jobs running ({@code --max-running}). */
  record GroupAtMax(String group, int maxRunning) implements WaitReason {
    public Code code() { return Code.GROUP_AT_MAX; }
  }

  /** As many CPU-only jobs run as {@code GQ_MAX_CPU_JOBS} allows. */
  record CpuJobsAtMax() implements WaitReason {
    public Code code() { return Code.CPU_JOBS_AT_MAX; }
  }

  record NoGpuReading() implements WaitReason {
    public Code code() { return Code.NO_GPU_READING; }
  }

  /** It wants {@code wanted} GPUs and {@code free} are free; {@code busy}: every GPU that is not, by index. */
  record GpusBusy(int wanted, int free, List<GpuHolder> busy) implements WaitReason {
    public GpusBusy { busy = List.copyOf(busy); }
    public Code code() { return Code.GPUS_BUSY; }
  }

  /** The fair turn found fewer free GPUs than the {@code wanted} ones. */
  record FewerFree(int wanted) implements WaitReason {
    public Code code() { return Code.GPUS_BUSY; }
  }

  /** No GPU here meets {@code need} ({@code need.share()}: a shared job's). */
  record NoGpuFits(int wanted, GpuNeed need) implements WaitReason {
    public Code code() { return Code.NO_GPU_FITS; }
  }

  /** Fewer GPUs than {@code wanted} meet {@code need}: those of {@code fitting} (indices). */
  record TooFewFit(int wanted, GpuNeed need, List<Integer> fitting) implements WaitReason {
    public TooFewFit { fitting = List.copyOf(fitting); }
    public Code code() { return Code.TOO_FEW_FIT; }
  }

  /** Enough GPUs meet {@code need} ({@code fitting}), {@code free} of them free; {@code busy}: the others. */
  record FittingGpusBusy(int wanted, GpuNeed need, List<Integer> fitting, int free, List<GpuHolder> busy) implements WaitReason {
    public FittingGpusBusy {
      fitting = List.copyOf(fitting);
      busy = List.copyOf(busy);
    }
    public Code code() { return Code.FITTING_GPUS_BUSY; }
  }

  /** A shared job fits on no fitting GPU now; {@code blocks}: why not, on each of them. */
  record SharedGpusFull(int wanted, GpuNeed need, List<GpuBlock> blocks) implements WaitReason {
    public SharedGpusFull { blocks = List.copyOf(blocks); }
    public Code code() {
      return blocks.stream().anyMatch(b -> b instanceof GpuBlock.OverShare) ? Code.OVER_ITS_SHARE : Code.SHARED_GPUS_FULL;
    }
  }

  /** GPUs gather for this job, which has waited over {@code after}; {@code gpus}: why it waits for them. */
  record Gathering(WaitReason gpus, Duration after) implements WaitReason {
    public Code code() { return Code.GPUS_GATHER; }
  }

  /** GPUs gather for older job {@code job} (wanting {@code wanted}); {@code keptFree}: the free ones kept for it. */
  record GatheringFor(long job, int wanted, Duration after, List<Integer> keptFree) implements WaitReason {
    public GatheringFor { keptFree = List.copyOf(keptFree); }
    public Code code() { return Code.GATHERING_FOR; }
  }

  /** Group {@code group} has {@code open} jobs whose outcome fail-fast still waits for. */
  record FailFastCheck(String group, int open) implements WaitReason {
    public Code code() { return Code.FAIL_FAST_CHECK; }
  }

  /**
   * GPU {@code gpu} (UUID) is booked by {@code user} from {@code start} to {@code end}: in the window,
   * or within {@code notice} before it and this job's time limit ends later ({@code noTime}: it has none).
   * {@code now} and {@code zone}: the moment and the zone the window is written in.
   */
  record BookedGpu(String gpu, String user, Instant start, Instant end, Duration notice, boolean noTime, Instant now,
      ZoneId zone) implements WaitReason {
    public Code code() { return Code.BOOKED; }

    public boolean inWindow() {
      return !now.isBefore(start);
    }
  }

  /** Free GPU {@code gpuIndex} is booked away from it ({@code booking}); {@code behind}: why it waits for others. */
  record Booked(WaitReason behind, int gpuIndex, BookedGpu booking) implements WaitReason {
    public Code code() { return Code.BOOKED; }
  }

  /** {@code reason}, with the free GPUs that wait for another user's fair turn ({@code gpus}). */
  record InTurn(WaitReason reason, List<TurnGpu> gpus) implements WaitReason {
    public InTurn { gpus = List.copyOf(gpus); }
    public Code code() { return reason.code(); }
  }

  /** {@code user} holds {@code held} GPUs and the machine allows {@code allowed} ({@code max_gpus_per_user_always}). */
  record UserLimit(String user, int held, int allowed) implements WaitReason {
    public Code code() { return Code.USER_LIMIT; }
  }

  /**
   * {@code user} holds {@code held} of the {@code sharedGpus} (at or over the fair {@code share}) while
   * {@code waiting} users below theirs wait; each freed GPU goes to them first for {@code turn}.
   */
  record FairShare(String user, int held, int sharedGpus, int share, List<Wanting> waiting, Duration turn) implements WaitReason {
    public FairShare { waiting = List.copyOf(waiting); }
    public Code code() { return Code.FAIR_SHARE; }
  }

  /** It failed to start {@code failures} times in a row, the last for {@code last}; it tries again in {@code left}. */
  record StartFailed(int failures, String last, Duration left) implements WaitReason {
    public Code code() { return Code.START_FAILED; }
  }

  record ToSlurm() implements WaitReason {
    public Code code() { return Code.TO_SLURM; }
  }

  /** Queued on the Slurm cluster as its job {@code clusterJob}. */
  record SlurmQueued(String clusterJob) implements WaitReason {
    public Code code() { return Code.SLURM_QUEUED; }
  }

  /**
   * What keeps GPU {@code index} from a job: its {@code state}, the job holding it ({@code job}; for a
   * SHARED one, {@code jobs}), an outside holder's name ({@code heldBy}), and other gq instances' shares ({@code others}).
   */
  record GpuHolder(int index, GpuState state, Long job, List<Long> jobs, String heldBy, List<String> others) {
    public GpuHolder {
      Objects.requireNonNull(state, "state");
      jobs = List.copyOf(jobs);
      others = List.copyOf(others);
    }

    public static GpuHolder of(GpuStatus g) {
      return new GpuHolder(g.index(), g.state(), g.ownerJobId(), g.shares().stream().map(GpuStatus.Share::jobId).toList(),
          g.heldBy(), g.others().stream().map(GpuStatus.Other::holder).toList());
    }
  }

  /** Why a shared job may not join one GPU now. */
  sealed interface GpuBlock {
    int gpu();

    /** The GPU does not meet the job's need. */
    record Unfit(int gpu) implements GpuBlock {}

    /** Neither FREE nor open to sharing: {@code holder}, or the SHARED GPU's {@code detail}. */
    record Taken(int gpu, GpuHolder holder, String detail) implements GpuBlock {}

    /** Shared job {@code job} there uses {@code usedMiB} of the {@code declaredMiB} it declared. */
    record OverShare(int gpu, long job, long usedMiB, long declaredMiB) implements GpuBlock {}

    /** It holds {@code count} shared jobs, the most a {@code --per-gpu} there allows ({@code cap}). */
    record AtCap(int gpu, int count, int cap) implements GpuBlock {}

    /** It has {@code leftMiB} left, less than the job declared. */
    record NoRoom(int gpu, long leftMiB) implements GpuBlock {}
  }

  /** A free GPU (by {@code index}; null when the reading lacks it, then by {@code uuid}) in another user's turn for {@code secondsLeft}. */
  record TurnGpu(Integer index, String uuid, long secondsLeft) {}

  /** A user below the fair share who waits, for {@code gpus} GPUs. */
  record Wanting(String user, int gpus) {}
}

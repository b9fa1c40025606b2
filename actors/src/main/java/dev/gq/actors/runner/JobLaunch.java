package dev.gq.actors.runner;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.launch.LaunchException;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.schedule.Request;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The blocking start of one job for its {@link JobRunner}: reads the job's command and log path
 * from the database unless they came with the job, takes its GPUs' machine-wide leases (the job
 * inherits them; another gq's lease sends it back to the queue) and launches it, as
 * {@link LaunchCommand} completes the command (a resume's checkpoint, a conda environment). Holds this
 * daemon's copies of the leases until every process of the job is gone, then lets them go.
 */
final class JobLaunch {
  private final Job job;
  private final RunnerDeps deps;
  private final Map<String, Long> totalMiB;
  private final AtomicReference<GpuLeases.Held> leases = new AtomicReference<>();

  /** {@code totalMiB}: the total memory of each of the job's GPUs, by UUID, from the reading it was reserved on. */
  JobLaunch(Job job, RunnerDeps deps, Map<String, Long> totalMiB) {
    this.job = job;
    this.deps = deps;
    this.totalMiB = Map.copyOf(totalMiB);
  }

  /** What a launch came to: the job's processes run, they could not be started, or another gq took a lease first. */
  sealed interface Outcome {
    /** What the Scheduler is told of job {@code jobId} when nothing was started; null when the job runs. */
    Request.Fact refusal(long jobId);
  }

  record Started(LaunchedProcess process) implements Outcome {
    @Override
    public Request.Fact refusal(long jobId) {
      return null;
    }
  }

  /** {@code exitCode}: what a shell reports for the same failure (127: the command cannot be run), or null. */
  record Failed(LaunchProblem problem, Integer exitCode) implements Outcome {
    Failed(LaunchProblem problem) {
      this(problem, null);
    }

    /** The launch failed; a command that cannot be run ends the job with the shell's status for it. */
    @Override
    public Request.Fact refusal(long jobId) {
      return JobEnd.spawnFailed(jobId, problem, exitCode);
    }
  }

  /** Another gq took a GPU's lease between the reservation and the launch: the job goes back to the queue. */
  record Deferred(LaunchProblem problem) implements Outcome {
    @Override
    public Request.Fact refusal(long jobId) {
      return new Request.LaunchDeferred(jobId, problem);
    }
  }

  /** Launches the job; the outcome is the runner's next message. Blocks. */
  Outcome spawn() {
    Job whole;
    try {
      if (job.spec().hasCommand() && job.logPath() != null) whole = job;
      else {
        Job stored = deps.effects().stored(job.id());
        whole = job.withStored(stored.spec(), stored.logPath());
      }
    } catch (RuntimeException e) {
      return failed(LaunchProblem.Cause.COMMAND_UNREADABLE, e.getMessage());
    }
    JobSpec full = whole.spec();
    try {
      LeaseHolder me = new LeaseHolder(deps.settings().self(), job.id());
      GpuLeases.Held held = ShareLeases.take(deps.effects().leases(), job, me, totals(), deps.settings().shareHeadroomMiB());
      leases.set(held);
      LaunchCommand cmd = LaunchCommand.of(full, JobEnvironment.of(whole, deps.settings().progressFile(job.id()),
          countedShare(job, deps)));
      if (cmd.problem() != null) {
        release();
        return new Failed(new LaunchProblem(LaunchProblem.Cause.LAUNCH_REFUSED, cmd.problem()), cmd.exitCode());
      }
      LaunchSpec spec = new LaunchSpec(job.id(), cmd.argv(), Path.of(full.cwd()), cmd.env(), Path.of(whole.logPath()),
          deps.settings().exitFile(job.id()), held.fds(), cmd.note());
      return new Started(deps.effects().launcher().launch(spec));
    } catch (GpuLeases.Taken e) {
      return new Deferred(new LaunchProblem(LaunchProblem.Cause.LEASE_TAKEN, e.getMessage()));
    } catch (LaunchException e) {
      release();
      return new Failed(new LaunchProblem(LaunchProblem.Cause.LAUNCH_REFUSED, e.getMessage()), e.exitCode());
    }
  }

  private static Failed failed(LaunchProblem.Cause cause, String detail) {
    return new Failed(new LaunchProblem(cause, detail));
  }

  /**
   * The total memory of the job's GPUs as its reservation saw them; for a shared job reserved without
   * them (a Scheduler that did not pass them), from a reading taken now.
   */
  private Map<String, Long> totals() {
    if (!job.spec().shares() || job.gpus().stream().allMatch(s -> totalMiB.containsKey(s.uuid())))
      return totalMiB;
    Map<String, Long> now = new HashMap<>(totalMiB);
    try {
      var reading = deps.effects().readGpus().reading();
      if (reading.ok())
        for (var d : reading.devices()) if (d.error() == null) now.putIfAbsent(d.uuid(), d.totalBytes() >> 20);
    } catch (RuntimeException e) {
      // the take then says which GPU's memory is not known
    }
    return now;
  }

  /**
   * The share of a job shared by {@code --per-gpu K} without {@code --vram}: (total − headroom) / K of
   * the smallest of its cards, from a reading taken now; null for any other job, or when the reading
   * does not show its cards.
   */
  static Long countedShare(Job job, RunnerDeps deps) {
    var need = job.spec().gpuNeed();
    if (need == null || !need.share() || need.vramMiB() > 0 || need.perGpu() <= 0 || job.gpus().isEmpty()) return null;
    try {
      var reading = deps.effects().readGpus().reading();
      if (!reading.ok()) return null;
      Long least = null;
      for (GpuSlot s : job.gpus()) {
        var d = reading.devices().stream().filter(x -> x.uuid().equals(s.uuid()) && x.error() == null).findFirst();
        if (d.isEmpty()) return null;
        long mib = need.declaredMiB(d.get().totalBytes() >> 20, deps.settings().shareHeadroomMiB());
        if (least == null || mib < least) least = mib;
      }
      return least;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Lets go of this daemon's copies of the job's leases (the job's processes keep theirs). */
  void release() {
    GpuLeases.Held held = leases.getAndSet(null);
    if (held != null) held.close();
  }
}

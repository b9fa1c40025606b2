package dev.gq.actors.runner;

import dev.gq.core.launch.Launcher;
import dev.gq.core.launch.Signals;
import dev.gq.core.proc.ProcessTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The ports a runner works through, plus its timings: the launcher, the process table, the
 * signaller, how to read a job's exit file (its record, and whether the job left no process behind),
 * the grace period between SIGTERM and SIGKILL, how often to look at a job's processes, a delay
 * before each launch that only tests set (to widen the window between reservation and launch), where
 * blocking work runs, how to take a GPU reading (with the /proc facts of the PIDs it lists) once a
 * job's processes are all gone, and how to read a job as stored, with its command (argv and
 * environment) and log path, which the Scheduler's memory does not keep (blocking; throws when it
 * cannot), the machine-wide GPU leases with this gq instance's name in them, the clock that
 * time limits are counted on, and the memory kept free on a shared GPU (GQ_SHARE_HEADROOM), from
 * which a job shared by {@code --per-gpu K} alone learns its share.
 */
public record RunnerDeps(
    Launcher launcher,
    ProcessTable procs,
    Signals signals,
    java.util.function.LongFunction<Path> exitFile,
    java.util.function.Function<Path, Optional<String>> exitContent,
    Duration cancelGrace,
    Duration livenessPoll,
    Duration testLaunchDelay,
    Executor blocking,
    java.util.function.Supplier<dev.gq.core.alloc.GpuObservation> readGpus,
    java.util.function.LongFunction<dev.gq.core.job.Job> stored,
    dev.gq.core.lease.GpuLeases leases,
    dev.gq.core.lease.LeaseHolder.Instance self,
    java.time.Clock clock,
    long shareHeadroomMiB) {

  /** {@code procs} with the scan of every process's job tag at a job's end shared between runners ({@link SharedTagScans}). */
  public static ProcessTable sharedScans(ProcessTable procs) {
    return SharedTagScans.of(procs);
  }

  /** With the default headroom on shared GPUs. */
  public RunnerDeps(Launcher launcher, ProcessTable procs, Signals signals, java.util.function.LongFunction<Path> exitFile,
      java.util.function.Function<Path, Optional<String>> exitContent, Duration cancelGrace, Duration livenessPoll,
      Duration testLaunchDelay, Executor blocking, java.util.function.Supplier<dev.gq.core.alloc.GpuObservation> readGpus,
      java.util.function.LongFunction<dev.gq.core.job.Job> stored, dev.gq.core.lease.GpuLeases leases,
      dev.gq.core.lease.LeaseHolder.Instance self, java.time.Clock clock) {
    this(launcher, procs, signals, exitFile, exitContent, cancelGrace, livenessPoll, testLaunchDelay, blocking, readGpus, stored,
        leases, self, clock, dev.gq.core.alloc.PlanRules.HEADROOM_MIB);
  }
}

package dev.gq.actors.runner;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.job.Job;
import dev.gq.core.launch.Launcher;
import dev.gq.core.launch.Signals;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.proc.ProcessTable;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The ports a runner works through: the launcher, the process table, the signaller, the
 * machine-wide GPU leases, where blocking work runs, a GPU reading taken now (with the /proc facts
 * of the PIDs it lists) once a job's processes are all gone, a job as stored with its command (argv
 * and environment) and log path, which the Scheduler's memory does not keep, and an exit file's
 * content. The daemon implements every method (no defaults); tests give a class of their own.
 */
public interface RunnerEffects {
  Launcher launcher();

  ProcessTable procs();

  Signals signals();

  GpuLeases leases();

  Executor blocking();

  /** A GPU reading taken now. Blocks. */
  GpuObservation readGpus();

  /** Job {@code id} as stored, with its command and log path. Blocks; throws when it cannot be read. */
  Job stored(long id);

  /** The content of the exit record {@code file}; empty while there is none. Blocks. */
  Optional<String> exitContent(Path file);
}

package dev.gq.actors.runner;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.job.Job;
import dev.gq.core.launch.Launcher;
import dev.gq.core.launch.Signals;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.proc.ProcessTable;
import dev.gq.host.launch.ExitFiles;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * A runner's effects for tests: the launcher, process table and signaller given, no GPU leases,
 * readings and stored jobs from the functions given, exit records read from their files.
 */
record TestRunnerEffects(Launcher launcher, ProcessTable procs, Signals signals, Executor blocking,
    Supplier<GpuObservation> readings, LongFunction<Job> store) implements RunnerEffects {

  @Override public GpuLeases leases() { return GpuLeases.NONE; }
  @Override public GpuObservation readGpus() { return readings.get(); }
  @Override public Job stored(long id) { return store.apply(id); }
  @Override public Optional<String> exitContent(Path file) { return ExitFiles.content(file); }
}

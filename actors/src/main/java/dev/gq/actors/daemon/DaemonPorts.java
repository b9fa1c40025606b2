package dev.gq.actors.daemon;

import dev.gq.actors.fair.FairSource;
import dev.gq.actors.notify.Notifications;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.JobChecks;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.runner.RunnerEffects;
import dev.gq.actors.runner.FreshReadings;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.job.Job;
import dev.gq.core.launch.Launcher;
import dev.gq.core.launch.Signals;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcessTable;
import dev.gq.host.launch.ExitFiles;
import dev.gq.host.launch.ShimLauncher;
import dev.gq.host.lease.LeaseFiles;
import dev.gq.host.libc.Libc;
import dev.gq.host.proc.ProcFs;
import dev.gq.host.signal.GroupSignals;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * The ports the daemon's parts work through, each made once here when the daemon starts: /proc, the
 * GPU probe and the readings taken from it (with the shared machine's files and gq top's short
 * history of each GPU's figures), the machine-wide GPU leases with this instance's name in them, the
 * job history and the journal, the notification targets, the reconciler's checks, and everything a
 * runner works through ({@link RunnerEffects}, implemented here in full).
 */
final class DaemonPorts implements RunnerEffects {
  /** How many readings of each GPU gq top's history keeps. */
  private static final int GPU_HISTORY_POINTS = 60;

  private final ActorSystem<?> system;
  private final JobHistory history;
  private final JournalReader journal;
  private final GpuProbe probe;
  private final ProcFs procs;
  private final ProcessTable runnerProcs;
  private final Executor blocking;
  private final LeaseFiles leaseFiles;
  private final GpuLeases runnerLeases;
  private final LeaseHolder.Instance self;
  private final GpuHistory gpuHistory;
  private final FairSource fair;
  private final Supplier<GpuObservation> observe;
  private final Launcher launcher;
  private final Signals signals;
  private final Notifications notifications;
  private final JobChecks checks;

  DaemonPorts(ActorSystem<?> system, DaemonConfig cfg, Map<String, String> env, JobHistory history, JournalReader journal,
      GpuProbe probe, Clock clock) {
    this.system = system;
    this.history = history;
    this.journal = journal;
    this.probe = probe;
    this.procs = new ProcFs(Path.of("/proc"), cfg.bootIdFile());
    this.runnerProcs = RunnerDeps.sharedScans(procs);
    this.blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    this.leaseFiles = new LeaseFiles(cfg.leaseDir());
    this.runnerLeases = LaunchDelay.around(leaseFiles, cfg.testLaunchDelay());
    this.self = new LeaseHolder.Instance(Libc.getuid(), System.getProperty("user.name"),
        cfg.paths().dataDir().toAbsolutePath().toString());
    this.gpuHistory = new GpuHistory(GPU_HISTORY_POINTS, cfg.pollInterval().dividedBy(2));
    this.fair = new FairSource(FairSource.policyFile(env), leaseFiles.dir(), self, ProcessHandle.current().pid(), procs,
        blocking, clock);
    this.observe = readings(probe, procs, leaseFiles, self, fair, gpuHistory);
    this.launcher = new ShimLauncher(cfg.shim(), procs);
    this.signals = new GroupSignals(procs);
    this.notifications = Notifications.fromEnvironment(cfg.paths().dataDir(), System.getenv(), Libc.getuid(), clock,
        cfg.failFast());
    this.checks = new JobChecks(procs, probe, cfg.paths()::exitFile, ExitFiles::read);
  }

  /**
   * A reading of the GPUs with the shared machine's files brought along (the policy, everyone's
   * demand), recorded in gq top's history; callers that ask while one is being taken (runners whose
   * jobs ended at once) share the next.
   */
  private static Supplier<GpuObservation> readings(GpuProbe probe, ProcFs procs, LeaseFiles leases, LeaseHolder.Instance self,
      FairSource fair, GpuHistory gpuHistory) {
    Supplier<GpuObservation> read = () -> GpuWatcher.observe(probe, procs, leases, self, leases.dir());
    return new FreshReadings<>(() -> {
      GpuObservation o = fair.observed(read.get());
      gpuHistory.record(o.reading());
      return o;
    });
  }

  // What a runner works through.
  @Override public Launcher launcher() { return launcher; }
  @Override public ProcessTable procs() { return runnerProcs; }
  @Override public Signals signals() { return signals; }
  @Override public GpuLeases leases() { return runnerLeases; }
  @Override public Executor blocking() { return blocking; }
  @Override public GpuObservation readGpus() { return observe.get(); }
  @Override public Job stored(long id) { return Projector.stored(system, history, journal, id); }
  @Override public Optional<String> exitContent(Path file) { return ExitFiles.content(file); }

  // What the other parts work through.
  /** /proc, as the reconciler, the watcher, the fair share and gq top and adopt read it. */
  ProcFs proc() { return procs; }
  JobHistory history() { return history; }
  JournalReader journal() { return journal; }
  GpuProbe probe() { return probe; }
  Supplier<GpuObservation> observe() { return observe; }
  Path leaseDir() { return leaseFiles.dir(); }
  LeaseHolder.Instance self() { return self; }
  GpuHistory gpuHistory() { return gpuHistory; }
  FairSource fair() { return fair; }
  Notifications notifications() { return notifications; }
  JobChecks checks() { return checks; }
}

package dev.gq.actors.daemon;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.actors.fair.FairSource;
import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.notify.Notifications;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.JobChecks;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.socket.DaemonApi;
import dev.gq.actors.socket.SocketServer;
import dev.gq.actors.watcher.FreshReadings;
import dev.gq.actors.watcher.GpuTimeline;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.cli.Gq;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.host.launch.ExitFiles;
import dev.gq.host.launch.ShimLauncher;
import dev.gq.host.lease.LeaseFiles;
import dev.gq.host.libc.Libc;
import dev.gq.host.proc.ProcFs;
import dev.gq.host.signal.GroupSignals;
import dev.gq.nvml.GpuProbes;
import dev.gq.persistence.Database;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.JournalReader;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon: the actor system, whose {@link Guardian} spawns and supervises the
 * Projector, Notifier, Reconciler, Scheduler, cluster bridge and GpuWatcher, the ports they use,
 * and the socket server, started in the order recovery needs: the history catches up with the
 * journal, the Scheduler replays and reconciles, and only then is the socket bound. A part that
 * fails for good stops the daemon with the reason ({@link #failure}).
 */
public final class Daemon implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);
  /** How many readings of each GPU gq top's history keeps. */
  private static final int GPU_HISTORY_POINTS = 60;
  private final ActorSystem<Guardian.Command> system;
  private final JobHistory jobHistory;
  private final JournalReader journal;
  private final GpuProbe probe;
  private final Path database;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CompletableFuture<Throwable> replayFailed = new CompletableFuture<>();
  private SocketServer server;
  private FairSource fair;
  private DaemonTasks tasks;
  /** The GPU usage record, written once more at stop before the actors go. */
  private volatile ActorRef<GpuTimeline.Command> timeline;
  private String sessionWarning;
  /** How each part is doing, and what a part that fails for good does to the daemon. */
  private PartFailures parts;

  private Daemon(ActorSystem<Guardian.Command> system, JobHistory jobHistory, JournalReader journal, GpuProbe probe, Path database) {
    this.system = system;
    this.database = database;
    this.jobHistory = jobHistory;
    this.journal = journal;
    this.probe = probe;
  }

  /**
   * Starts everything; {@code env} chooses the GPU probe (real NVML, or fake GPUs); no job id up to
   * the highest id with files in logs/ or run/ ({@code files}) is issued again, and a journal that lost
   * jobs that ran stops the start unless the loss is accepted.
   */
  public static Daemon start(DaemonConfig cfg, Map<String, String> env, JobFileScan files) throws IOException {
    Config conf = ConfigFactory.parseString(JournalConfig.hocon(cfg.paths().database()))
        .withFallback(ConfigFactory.parseResources("gq-daemon.conf"))
        .withFallback(ConfigFactory.load());
    ActorSystem<Guardian.Command> system = ActorSystem.create(Guardian.create(), "gq", conf);
    JobHistory rs;
    JournalReader journal;
    try {
      rs = JobHistory.open(cfg.paths().database());
      journal = JournalReader.open(cfg.paths().database());
    } catch (SQLException e) {
      system.terminate();
      throw new IOException("cannot open the job history: " + e.getMessage(), e);
    }
    GpuProbe probe = GpuProbes.fromEnvironment(env);
    Daemon d = new Daemon(system, rs, journal, probe, cfg.paths().database());
    try {
      d.wire(cfg, env, files);
    } catch (IOException | RuntimeException e) {
      d.close();
      throw e;
    }
    return d;
  }

  private void wire(DaemonConfig cfg, Map<String, String> env, JobFileScan files) throws IOException {
    parts = PartFailures.open(cfg.paths().dataDir(), Clock.systemUTC(), this::requestStop);
    LOG.info("actor system up; catching the job history up with the journal");
    Projector.catchUp(system, jobHistory, journal);
    LOG.info("job history up to date; replaying the scheduler");
    Clock clock = Clock.systemUTC();
    ProcFs procs = new ProcFs(Path.of("/proc"), cfg.bootIdFile());
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    LeaseFiles leases = new LeaseFiles(cfg.leaseDir());
    LeaseHolder.Instance self = new LeaseHolder.Instance(Libc.getuid(), System.getProperty("user.name"),
        cfg.paths().dataDir().toAbsolutePath().toString());
    LOG.info("GPU leases in {}", leases.dir());
    // gq top's short history of each GPU's figures, kept from the readings taken anyway
    GpuHistory gpuHistory = new GpuHistory(GPU_HISTORY_POINTS, cfg.pollInterval().dividedBy(2));
    fair = new FairSource(FairSource.policyFile(env), leases.dir(), self, ProcessHandle.current().pid(), procs, blocking, clock);
    Supplier<GpuObservation> read = () -> GpuWatcher.observe(probe, procs, leases, self, leases.dir());
    // the GPU watcher's readings bring the shared machine's files along: the policy, everyone's demand
    // callers that ask while a reading is being taken (runners whose jobs ended at once) share the next
    Supplier<GpuObservation> observe = new FreshReadings<>(() -> {
      GpuObservation o = fair.observed(read.get());
      gpuHistory.record(o.reading());
      return o;
    });
    RunnerDeps runnerDeps = new RunnerDeps(new ShimLauncher(cfg.shim(), procs), RunnerDeps.sharedScans(procs), new GroupSignals(procs),
        cfg.paths()::exitFile, ExitFiles::content, cfg.cancelGrace(), cfg.livenessPoll(),
        cfg.testLaunchDelay(), blocking, observe,
        id -> Projector.stored(system, jobHistory, journal, id), leases, self, clock, cfg.shareHeadroomMiB());
    var notifications = Notifications.fromEnvironment(cfg.paths().dataDir(), System.getenv(),
        Libc.getuid(), clock, cfg.failFast());
    JobChecks checks = new JobChecks(procs, probe, cfg.paths()::exitFile, ExitFiles::read);
    Guardian.Started kids = start(new Guardian.Parts(cfg, runnerDeps, checks, jobHistory, journal, observe, probe, blocking,
        files, replayFailed::complete, clock, notifications, parts.health(), Faults.fromEnvironment(env),
        Supervision.Backoff.DEFAULT, parts::failed, fair));
    ActorRef<Scheduler.Command> scheduler = kids.scheduler();
    ActorRef<Projector.Command> projector = kids.projector();
    timeline = kids.timeline();
    awaitReady(scheduler);
    LOG.info("scheduler recovered and reconciled");
    sessionWarning = Lifecycle.warning();
    DaemonApi api = new DaemonApi(system, scheduler, projector, jobHistory, journal, cfg.paths().dataDir().toString(),
        this::requestStop, this::warning, clock);
    api.adoptFrom(procs, Libc.getuid(), leases.dir());
    api.notifyThrough(notifications);
    api.partsFrom(parts::lines);
    api.usageFrom(cfg.paths().database());
    api.topFrom(gpuHistory, procs);
    api.fairFrom(fair);
    server = SocketServer.start(cfg.paths().socket(), api, cfg.maxClients(), cfg.maxStreams(), parts.previousStop());
    parts.serving();
    // after the socket is open, so that it delays no request: the first gq top then draws at once
    Thread.ofPlatform().name("gq-prepare").daemon(true).start(Gq::prepare);
    tasks = DaemonTasks.start(system, api, cfg.paths().database(), cfg.progressSample());
  }

  /** Why the daemon stopped after a part failed for good, or null when it was asked to stop. */
  public String failure() {
    return parts == null ? null : parts.failure();
  }

  private String warning() {
    String damage = tasks == null ? null : tasks.damage();
    if (damage == null) return sessionWarning;
    return sessionWarning == null ? damage : damage + "; " + sessionWarning;
  }

  /** Has the guardian spawn the actors. */
  private Guardian.Started start(Guardian.Parts parts) throws IOException {
    try {
      return AskPattern.<Guardian.Command, Guardian.Started>ask(system, r -> new Guardian.Start(parts, r),
              Duration.ofSeconds(30), system.scheduler())
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IOException("the actors did not start: " + e, e);
    }
  }

  /** Waits for start-up reconciliation; a replay that fails stops the start with one line, not a retry loop. */
  private void awaitReady(ActorRef<Scheduler.Command> scheduler) throws IOException {
    Object outcome;
    try {
      var ready = AskPattern.<Scheduler.Command, Done>ask(scheduler, Scheduler.AwaitReady::new, Duration.ofMinutes(5), system.scheduler())
          .toCompletableFuture();
      outcome = CompletableFuture.anyOf(ready, replayFailed, parts.duringStart()).get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IOException("the scheduler did not become ready: " + e, e);
    }
    if (replayFailed.isDone()) throw new IOException(ReplayFailure.text(database, replayFailed.join()));
    if (outcome instanceof String why) throw new IOException(why);
  }

  public String probeText() {
    return probe.describe();
  }

  public void requestStop() {
    stop.countDown();
  }

  public void awaitStop() {
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    if (server != null) server.close();
    flushTimeline();
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // stopping anyway
    }
    // nothing of this daemon waits any more: the others stop counting it at once
    if (fair != null) fair.withdraw();
    try {
      jobHistory.close();
      journal.close();
    } catch (SQLException ignored) {
      // stopping anyway
    }
    probe.close();
    // Every connection is closed now: leave no transaction only in gq.db-wal.
    String notCheckpointed = Database.checkpoint(database);
    if (notCheckpointed != null)
      LOG.warn("could not move the write-ahead log into {}: {}; keep {}-wal beside it", database, notCheckpointed, database);
  }

  /** Writes what the GPUs did up to now, bounded: a record cut short loses a few seconds, never the stop. */
  private void flushTimeline() {
    var t = timeline;
    if (t == null) return;
    try {
      AskPattern.<GpuTimeline.Command, Boolean>ask(t, GpuTimeline.Flush::new,
          Duration.ofSeconds(3), system.scheduler()).toCompletableFuture().get(4, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("could not write the GPU usage record at stop ({}); the last seconds are unknown to gq report", e.toString());
    }
  }
}

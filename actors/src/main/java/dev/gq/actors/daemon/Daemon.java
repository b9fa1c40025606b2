package dev.gq.actors.daemon;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gq.actors.fair.FairSource;
import dev.gq.actors.health.Faults;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.socket.DaemonApi;
import dev.gq.actors.socket.SocketServer;
import dev.gq.actors.watcher.GpuTimeline;
import dev.gq.cli.Gq;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.host.libc.Libc;
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
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon: the actor system, whose {@link Guardian} spawns and supervises the
 * Projector, Notifier, Reconciler, Scheduler, cluster bridge, GpuWatcher and GpuTimeline, the ports
 * they use ({@link DaemonPorts}), and the socket server, started in the order recovery needs: the history catches up with the
 * journal, the Scheduler replays and reconciles, and only then is the socket bound. A part that
 * fails for good stops the daemon with the reason ({@link #failure}).
 */
public final class Daemon implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);
  private final ActorSystem<Guardian.Command> system;
  private final JobHistory jobHistory;
  private final JournalReader journal;
  private final GpuProbe probe;
  private final Path database;
  private final CountDownLatch stop = new CountDownLatch(1);
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
    Clock clock = Clock.systemUTC();
    parts = PartFailures.open(cfg.paths().dataDir(), clock, this::requestStop, LOG);
    LOG.info("actor system up; catching the job history up with the journal");
    Projector.catchUp(system, jobHistory, journal);
    LOG.info("job history up to date; replaying the scheduler");
    DaemonPorts ports = new DaemonPorts(system, cfg, env, jobHistory, journal, probe, clock);
    fair = ports.fair();
    LOG.info("GPU leases in {}", ports.leaseDir());
    var settings = DaemonSettings.of(cfg, files, Faults.fromEnvironment(env), ports.self(), clock);
    Guardian.Started kids = start(settings, ports);
    ActorRef<Scheduler.Command> scheduler = kids.scheduler();
    timeline = kids.timeline();
    awaitReady(scheduler);
    LOG.info("scheduler recovered and reconciled");
    sessionWarning = Lifecycle.warning();
    DaemonApi api = new DaemonApi(new DaemonApi.Actors(system, scheduler, kids.projector()),
        new DaemonApi.Stores(jobHistory, journal, cfg.paths()),
        new DaemonApi.Machine(ports.proc(), Libc.getuid(), ports.leaseDir(), ports.gpuHistory(), ports.fair(),
            ports.notifications()),
        new DaemonApi.Host(parts::lines, this::warning, this::requestStop, clock));
    // before the socket is open: a flood of clients can use up the descriptors, and loading a class
    // from a jar not yet opened then fails, which must not happen on the way to serving
    tasks = DaemonTasks.start(system, api, cfg.paths().database(), cfg.progressSample());
    server = SocketServer.start(cfg.paths().socket(), api, cfg.maxClients(), cfg.maxStreams(), parts.previousStop());
    parts.serving();
    // after the socket is open, so that it delays no request: the first gq top then draws at once
    Thread.ofPlatform().name("gq-prepare").daemon(true).start(Gq::prepare);
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
  private Guardian.Started start(DaemonSettings settings, DaemonPorts ports) throws IOException {
    try {
      return AskPattern.<Guardian.Command, Guardian.Started>ask(system, r -> new Guardian.Start(settings, ports, parts, r),
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
      outcome = CompletableFuture.anyOf(ready, parts.replayFailure(), parts.duringStart()).get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IOException("the scheduler did not become ready: " + e, e);
    }
    if (parts.replayFailure().isDone()) throw new IOException(ReplayFailure.text(database, parts.replayFailure().join()));
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

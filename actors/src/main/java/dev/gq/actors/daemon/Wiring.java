package dev.gq.actors.daemon;

import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.Reconciler;
import dev.gq.actors.runner.JobRunner;
import dev.gq.actors.runner.RunnerFailures;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerDeps;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.host.fs.DiskSpace;
import dev.gq.protocol.DiskRoom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Scheduler's dependencies in the real daemon. */
final class Wiring implements SchedulerDeps {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

  private final DaemonConfig cfg;
  private final RunnerDeps runnerDeps;
  private final ActorRef<Reconciler.Command> reconciler;
  private final ActorRef<Projector.Command> projector;
  private final AtomicReference<ActorRef<GpuWatcher.Command>> watcher;
  private final JobFileScan files;
  private final java.util.function.Consumer<Throwable> replayFailed;
  private final Clock clock;
  private final ActorRef<dev.gq.actors.notify.Notifier.Command> notifier;
  private final AtomicReference<ActorRef<dev.gq.actors.cluster.ClusterBridge.Command>> cluster;
  private final dev.gq.actors.health.Faults faults;
  private final dev.gq.actors.fair.FairSource fair;
  private final HeapHint heap;

  Wiring(DaemonConfig cfg, RunnerDeps runnerDeps, ActorRef<Reconciler.Command> reconciler, ActorRef<Projector.Command> projector,
      AtomicReference<ActorRef<GpuWatcher.Command>> watcher, JobFileScan files,
      java.util.function.Consumer<Throwable> replayFailed, Clock clock, ActorRef<dev.gq.actors.notify.Notifier.Command> notifier,
      AtomicReference<ActorRef<dev.gq.actors.cluster.ClusterBridge.Command>> cluster, dev.gq.actors.health.Faults faults,
      dev.gq.actors.fair.FairSource fair) {
    this.fair = fair;
    this.heap = new HeapHint(cfg.paths().dataDir());
    this.cluster = cluster;
    this.faults = faults;
    this.cfg = cfg;
    this.runnerDeps = runnerDeps;
    this.reconciler = reconciler;
    this.projector = projector;
    this.watcher = watcher;
    this.files = files;
    this.replayFailed = replayFailed;
    this.clock = clock;
    this.notifier = notifier;
  }

  @Override public Clock clock() { return clock; }
  @Override public int snapshotEvery() { return cfg.snapshotEvery(); }
  @Override public FailFast failFast() { return cfg.failFast(); }
  @Override public java.time.Duration gatherAfter() { return cfg.gatherAfter(); }
  @Override public java.time.Duration idleAfter() { return cfg.idleAfter(); }
  @Override public int maxCpuJobs() { return cfg.maxCpuJobs(); }
  @Override public long shareHeadroomMiB() { return cfg.shareHeadroomMiB(); }
  @Override public String logPath(long jobId) { return cfg.paths().jobLog(jobId).toString(); }
  @Override public long highestJobFileId() { return files.highestId(); }
  @Override public dev.gq.core.fair.FairView fair() { return fair.view(); }
  @Override public void demand(Ledger ledger) {
    fair.own(dev.gq.core.schedule.FairPlan.own(ledger, clock.instant()));
    heap.note(ledger.live().size());
  }

  @Override
  public String lostHistory(Ledger ledger) {
    long next = ledger.nextId();
    if (files.ran().countFrom(next) == 0) return null;
    var p = cfg.paths();
    String line = LostHistory.refusal(p.database(), p.logDir(), p.exitDir(), files.ran(), next,
        LostHistory.running(java.nio.file.Path.of("/proc"), p.exitDir(), id -> id >= next && files.ran().contains(id)));
    if (!files.acceptLoss()) return line;
    LOG.warn("starting as {}=1 asks, although {}", JobFileScan.ACCEPT_LOSS, line);
    return null;
  }

  @Override public void refuseStart(String line) { replayFailed.accept(new LostHistory.Refused(line)); }
  @Override public void replayFailed(Throwable cause) { replayFailed.accept(cause); }
  @Override public java.nio.file.Path journalPath() { return cfg.paths().database(); }
  @Override public String diskFullNote() { return DiskRoom.fullNote(cfg.paths().dataDir()); }

  @Override
  public void giveUpReserve() {
    if (DiskSpace.releaseReserve(cfg.paths().dataDir()))
      LOG.warn("gave up the reserve file {} so that the end of a job can be written", cfg.paths().dataDir().resolve(".reserve"));
  }

  @Override
  public void journalWritable() {
    runnerDeps.blocking().execute(() -> DiskSpace.ensureReserve(cfg.paths().dataDir()));
  }

  @Override
  public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach) {
    return startRunner(ctx, job, reattach, java.util.Map.of());
  }

  @Override
  public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
      java.util.Map<String, Long> totalMiB) {
    var facts = Scheduler.facts(ctx);
    var behavior = job.adopted() ? dev.gq.actors.runner.AdoptedRunner.watch(job, runnerDeps, facts)
        : reattach ? JobRunner.reattach(job, runnerDeps, facts)
        : JobRunner.launch(job, runnerDeps, facts, totalMiB);
    // A reserve given up for an end written while the disk was full (the journal may have taken
    // writes again before there was room to make it) is made again at the next start that finds
    // room, so that the next full disk has one too; a stat when it is there, after the launch began.
    if (!reattach) runnerDeps.blocking().execute(() -> DiskSpace.ensureReserve(cfg.paths().dataDir()));
    return ctx.spawnAnonymous(RunnerFailures.logged(job.id(), behavior, faults));
  }

  @Override
  public void checkNow(ActorContext<Scheduler.Command> ctx, List<Job> jobs, ActorRef<Scheduler.Command> scheduler) {
    reconciler.tell(new Reconciler.CheckNow(jobs, scheduler));
  }

  @Override
  public void startReconciler(ActorContext<Scheduler.Command> ctx, Ledger ledger, ActorRef<Scheduler.Command> scheduler) {
    reconciler.tell(new Reconciler.Reconcile(List.copyOf(ledger.live().values()), scheduler));
  }

  @Override
  public void project(long firstSeq, List<LedgerEvent> events) {
    projector.tell(new Projector.Project(firstSeq, events));
    notifier.tell(new dev.gq.actors.notify.Notifier.Poke());
    var bridge = cluster.get();
    if (bridge != null && events.stream().anyMatch(Wiring::concernsCluster)) bridge.tell(new dev.gq.actors.cluster.ClusterBridge.Poke());
  }

  /** Whether the cluster bridge should look soon: a cluster job submitted, or a cancel or hold it may have to carry. */
  private static boolean concernsCluster(LedgerEvent e) {
    return switch (e) {
      case LedgerEvent.JobSubmitted s -> s.spec().onCluster();
      case LedgerEvent.JobCancelRequested c -> true;
      case LedgerEvent.GroupHeld h -> true;
      case LedgerEvent.GroupReleased r -> true;
      case LedgerEvent.JobsHeld h -> true;
      case LedgerEvent.QueuePaused p -> true;
      case LedgerEvent.QueueResumed r -> true;
      default -> false;
    };
  }

  @Override
  public void pollNow() {
    ActorRef<GpuWatcher.Command> w = watcher.get();
    if (w != null) w.tell(new GpuWatcher.PollNow());
  }

  @Override
  public void logEvents(List<LedgerEvent> events) {
    for (String line : EventText.lines(events)) LOG.info("{}", line);
  }
}

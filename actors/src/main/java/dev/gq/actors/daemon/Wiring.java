package dev.gq.actors.daemon;

import dev.gq.actors.cluster.ClusterBridge;
import dev.gq.actors.notify.Notifier;
import dev.gq.actors.notify.WriteEnds;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.Reconciler;
import dev.gq.actors.runner.AdoptedRunner;
import dev.gq.actors.runner.JobRunner;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.runner.RunnerFailures;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerEffects;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.fair.FairView;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.schedule.FairPlan;
import dev.gq.host.fs.DiskSpace;
import dev.gq.protocol.DiskRoom;
import dev.gq.protocol.GqPaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the Scheduler does to the rest of the real daemon: every method of {@link SchedulerEffects}. */
final class Wiring implements SchedulerEffects {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

  /** The guardian's other children the Scheduler talks to; the watcher and the bridge are spawned after it. */
  record Children(ActorRef<Reconciler.Command> reconciler, ActorRef<Projector.Command> projector,
      ActorRef<Notifier.Command> notifier, WriteEnds writes, AtomicReference<ActorRef<GpuWatcher.Command>> watcher,
      AtomicReference<ActorRef<ClusterBridge.Command>> cluster) {}

  private final DaemonSettings settings;
  private final DaemonPorts ports;
  private final PartFailures failures;
  private final Children children;
  private final RunnerDeps runnerDeps;
  private final HeapHint heap;

  Wiring(DaemonSettings settings, DaemonPorts ports, PartFailures failures, Children children) {
    this.settings = settings;
    this.ports = ports;
    this.failures = failures;
    this.children = children;
    this.runnerDeps = new RunnerDeps(settings.running(), ports);
    this.heap = new HeapHint(settings.cfg().paths().dataDir());
  }

  private GqPaths paths() {
    return settings.cfg().paths();
  }

  @Override public FairView fair() { return ports.fair().view(); }
  @Override public void demand(Ledger ledger) {
    ports.fair().own(FairPlan.published(ledger, settings.scheduling().clock().instant()));
    heap.note(ledger.live().size());
  }

  @Override
  public String lostHistory(Ledger ledger) {
    long next = ledger.nextId();
    JobFileScan files = settings.files();
    if (files.ran().countFrom(next) == 0) return null;
    String line = LostHistory.refusal(paths().database(), paths().logDir(), paths().exitDir(), files.ran(), next,
        LostHistory.running(Path.of("/proc"), paths().exitDir(), id -> id >= next && files.ran().contains(id)));
    if (!files.acceptLoss()) return line;
    LOG.warn("starting as {}=1 asks, although {}", JobFileScan.ACCEPT_LOSS, line);
    return null;
  }

  @Override public void refuseStart(String line) { failures.replayFailed(new LostHistory.Refused(line)); }
  @Override public void replayFailed(Throwable cause) { failures.replayFailed(cause); }
  @Override public String diskFullNote() { return DiskRoom.fullNote(paths().dataDir()); }

  @Override
  public void giveUpReserve() {
    if (DiskSpace.releaseReserve(paths().dataDir()))
      LOG.warn("gave up the reserve file {} so that the end of a job can be written", paths().dataDir().resolve(".reserve"));
  }

  @Override
  public void journalWritable() {
    ports.blocking().execute(() -> DiskSpace.ensureReserve(paths().dataDir()));
  }

  @Override
  public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
      Map<String, Long> totalMiB) {
    var facts = Scheduler.facts(ctx);
    var behavior = job.adopted() ? AdoptedRunner.watch(job, runnerDeps, facts)
        : reattach ? JobRunner.reattach(job, runnerDeps, facts)
        : JobRunner.launch(job, runnerDeps, facts, totalMiB);
    // A reserve given up for an end written while the disk was full (the journal may have taken
    // writes again before there was room to make it) is made again at the next start that finds
    // room, so that the next full disk has one too; a stat when it is there, after the launch began.
    if (!reattach) ports.blocking().execute(() -> DiskSpace.ensureReserve(paths().dataDir()));
    return ctx.spawnAnonymous(RunnerFailures.logged(job.id(), behavior, settings.faults()));
  }

  @Override
  public void checkNow(ActorContext<Scheduler.Command> ctx, List<Job> jobs, ActorRef<Scheduler.Command> scheduler) {
    children.reconciler().tell(new Reconciler.CheckNow(jobs, scheduler));
  }

  @Override
  public void startReconciler(ActorContext<Scheduler.Command> ctx, Ledger ledger, ActorRef<Scheduler.Command> scheduler) {
    children.reconciler().tell(new Reconciler.Reconcile(List.copyOf(ledger.live().values()), scheduler));
  }

  @Override
  public void project(long firstSeq, List<LedgerEvent> events) {
    children.projector().tell(new Projector.Project(firstSeq, events));
    // said before the next write is stored, so that the notifier knows where this one ended
    children.writes().stored(firstSeq + events.size() - 1);
    children.notifier().tell(new Notifier.Poke());
    var bridge = children.cluster().get();
    if (bridge != null && events.stream().anyMatch(Wiring::concernsCluster)) bridge.tell(new ClusterBridge.Poke());
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
    ActorRef<GpuWatcher.Command> w = children.watcher().get();
    if (w != null) w.tell(new GpuWatcher.PollNow());
  }

  @Override
  public void logEvents(List<LedgerEvent> events) {
    for (String line : EventText.lines(events)) LOG.info("{}", line);
  }
}

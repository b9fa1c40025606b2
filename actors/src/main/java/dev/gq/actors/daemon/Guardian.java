package dev.gq.actors.daemon;

import dev.gq.actors.cluster.ClusterBridge;
import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Part;
import dev.gq.actors.health.PartHealth;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.notify.Notifications;
import dev.gq.actors.notify.Notifier;
import dev.gq.actors.notify.WriteEnds;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.JobChecks;
import dev.gq.actors.reconciler.Reconciler;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.watcher.GpuTimeline;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.JobHistory;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor system's root. It waits for {@link Start}, sent by the daemon once the job history has
 * caught up with the journal, then spawns its children in the order recovery needs: the Projector
 * (on the blocking dispatcher), the Notifier (which follows the journal on its own thread), the
 * Reconciler, the Scheduler (which replays its events and asks the Reconciler for the start-up
 * pass), the cluster bridge and the GpuWatcher, and replies with the references the socket server
 * needs. Each child runs under {@link Supervision}: a part that fails is logged, shown in
 * {@link PartHealth} and started again after a back-off; the guardian watches them all, and one
 * that stops (the Scheduler on any failure, another part after too many) makes it call
 * {@code Parts.stopDaemon} with the one line that says why. Stopping the system stops them all,
 * children first.
 */
final class Guardian {
  sealed interface Command {}
  /** Spawn the children from {@code parts} and reply with the references. */
  record Start(Parts parts, ActorRef<Started> replyTo) implements Command {}
  /**
   * What the children are made of; {@code replayFailed} hears a Scheduler that cannot replay,
   * {@code stopDaemon} a part that stopped for good.
   */
  record Parts(DaemonConfig cfg, RunnerDeps runnerDeps, JobChecks checks, JobHistory jobHistory, JournalReader journal,
      Supplier<GpuObservation> observe, GpuProbe probe, Executor blocking, JobFileScan files,
      Consumer<Throwable> replayFailed, Clock clock, Notifications notifications, PartHealth health, Faults faults,
      Supervision.Backoff backoff, Consumer<String> stopDaemon, dev.gq.actors.fair.FairSource fair) {}
  /** The children the rest of the daemon talks to. */
  record Started(ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      ActorRef<GpuTimeline.Command> timeline) {}

  private Guardian() {}

  static Behavior<Command> create() {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class).onMessage(Start.class, s -> start(ctx, s)).build());
  }

  private static Behavior<Command> start(ActorContext<Command> ctx, Start m) {
    Parts s = m.parts();
    Map<ActorRef<?>, Part> watched = new HashMap<>();
    var health = s.health();
    ActorRef<Projector.Command> projector = spawn(ctx, s, watched, Part.HISTORY,
        Projector.create(s.jobHistory(), s.journal(), health.beat(Part.HISTORY)), DispatcherSelector.blocking());
    WriteEnds writes = new WriteEnds();
    ActorRef<Notifier.Command> notifier = spawn(ctx, s, watched, Part.NOTIFIER, Notifier.create(s.notifications(),
        s.jobHistory(), s.journal(), writes, projector, s.cfg().paths().dataDir(), s.notifications().poll(),
        health.beat(Part.NOTIFIER)), Props.empty());
    AtomicReference<ActorRef<Scheduler.Command>> known = new AtomicReference<>();
    ActorRef<Reconciler.Command> reconciler = spawn(ctx, s, watched, Part.RECONCILER, Reconciler.create(s.checks(),
        s.cfg().reconcileInterval(), s.blocking(), known::get, health.beat(Part.RECONCILER)), Props.empty());
    AtomicReference<ActorRef<GpuWatcher.Command>> watcher = new AtomicReference<>();
    AtomicReference<ActorRef<ClusterBridge.Command>> cluster = new AtomicReference<>();
    var deps = new Wiring(s.cfg(), s.runnerDeps(), reconciler, projector, watcher, s.files(), s.replayFailed(), s.clock(),
        notifier, writes, cluster, s.faults(), s.fair());
    ActorRef<Scheduler.Command> scheduler = spawn(ctx, s, watched, Part.SCHEDULER, Scheduler.create(deps), Props.empty());
    known.set(scheduler);
    cluster.set(spawn(ctx, s, watched, Part.CLUSTER, ClusterBridge.create(scheduler, s.cfg().paths().dataDir(),
        s.runnerDeps().stored(), System.getenv(), health.beat(Part.CLUSTER)), DispatcherSelector.blocking()));
    watcher.set(spawn(ctx, s, watched, Part.GPU_WATCHER, GpuWatcher.create(s.observe(), s.probe(), scheduler,
        s.cfg().pollInterval(), s.blocking(), s.clock(), health.beat(Part.GPU_WATCHER)), Props.empty()));
    // what each GPU did, for 'gq report': restarted on a failure, never a reason to stop the daemon
    ActorRef<GpuTimeline.Command> timeline = ctx.spawn(Behaviors.supervise(GpuTimeline.create(scheduler, s.cfg().paths().database(), s.cfg().pollInterval(),
        s.clock())).onFailure(org.apache.pekko.actor.typed.SupervisorStrategy.restart()), "gpu-timeline",
        DispatcherSelector.blocking());
    m.replyTo().tell(new Started(scheduler, projector, timeline));
    return watching(s.health(), s.backoff(), s.stopDaemon(), watched);
  }

  private static <T> ActorRef<T> spawn(ActorContext<Command> ctx, Parts s, Map<ActorRef<?>, Part> watched, Part part,
      Behavior<T> behavior, Props props) {
    return spawnPart(ctx, part, Supervision.supervised(part, behavior, s.health(), s.faults(), s.backoff()), props, watched);
  }

  /** Spawns the supervised {@code part} and watches it. */
  static <T> ActorRef<T> spawnPart(ActorContext<?> ctx, Part part, Behavior<T> supervised, Props props,
      Map<ActorRef<?>, Part> watched) {
    ActorRef<T> ref = ctx.spawn(supervised, part.actorName(), props);
    ctx.watch(ref);
    watched.put(ref, part);
    return ref;
  }

  /**
   * A part that stops while the daemon runs has failed for good (the Scheduler on any failure,
   * another after too many restarts): the daemon must not go on without it, so {@code stopDaemon}
   * hears the one line that says why.
   */
  static <C> Behavior<C> watching(PartHealth health, Supervision.Backoff backoff, Consumer<String> stopDaemon,
      Map<ActorRef<?>, Part> watched) {
    return Behaviors.receive((ctx, msg) -> Behaviors.same(), (ctx, signal) -> {
      if (!(signal instanceof Terminated t)) return Behaviors.same();
      Part part = watched.remove(t.getRef());
      if (part == null) return Behaviors.same();
      String why = t instanceof ChildFailed f ? Supervision.why(f.getCause()) : "it stopped";
      health.stopped(part, why);
      String times = part.restartable() ? " after " + backoff.maxRestarts() + " restarts" : "";
      stopDaemon.accept("the " + part.text() + " failed" + times + " (" + why + ")");
      return Behaviors.same();
    });
  }
}

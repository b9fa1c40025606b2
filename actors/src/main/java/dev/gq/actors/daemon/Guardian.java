package dev.gq.actors.daemon;

import dev.gq.actors.cluster.ClusterBridge;
import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Part;
import dev.gq.actors.health.PartHealth;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.notify.Notifier;
import dev.gq.actors.notify.WriteEnds;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.Reconciler;
import dev.gq.actors.runner.RunnerSettings;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerSettings;
import dev.gq.actors.watcher.GpuTimeline;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.lease.LeaseHolder;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actor system's root. It waits for {@link Start}, sent by the daemon once the job history has
 * caught up with the journal, then spawns its children in the order recovery needs: the Projector
 * (on the blocking dispatcher), the Notifier (which follows the journal on its own thread), the
 * Reconciler, the Scheduler (which replays its events and asks the Reconciler for the start-up
 * pass), the cluster bridge, the GpuWatcher and the GpuTimeline, and replies with the references the
 * socket server needs. Each child runs under {@link Supervision}: a part that fails is logged, shown
 * in {@link PartHealth} and started again after a back-off; the guardian watches them all, and an
 * essential one that stops (the Scheduler on any failure, another part after too many) makes it
 * tell {@link PartFailures#failed} the one line that says why. Stopping the system stops them all,
 * children first.
 */
final class Guardian {
  private static final Logger LOG = LoggerFactory.getLogger(Guardian.class);
  sealed interface Command {}
  /**
   * Spawn the children with {@code settings}, working through {@code ports}, and reply with the
   * references; {@code failures} hears a Scheduler that cannot replay and a part that stopped for good.
   */
  record Start(DaemonSettings settings, DaemonPorts ports, PartFailures failures, ActorRef<Started> replyTo) implements Command {}

  /** The children the rest of the daemon talks to. */
  record Started(ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      ActorRef<GpuTimeline.Command> timeline) {}

  private Guardian() {}

  static Behavior<Command> create() {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class).onMessage(Start.class, s -> start(ctx, s)).build());
  }

  private static Behavior<Command> start(ActorContext<Command> ctx, Start m) {
    DaemonSettings s = m.settings();
    DaemonPorts p = m.ports();
    Clock clock = s.scheduling().clock();
    PartHealth health = m.failures().health();
    Map<ActorRef<?>, Part> watched = new HashMap<>();
    Spawner spawner = new Spawner(ctx, s, health, watched);
    ActorRef<Projector.Command> projector = spawner.spawn(Part.HISTORY,
        Projector.create(p.history(), p.journal(), health.beat(Part.HISTORY)), DispatcherSelector.blocking());
    WriteEnds writes = new WriteEnds();
    ActorRef<Notifier.Command> notifier = spawner.spawn(Part.NOTIFIER, Notifier.create(p.notifications(),
        p.history(), p.journal(), writes, projector, s.cfg().paths().dataDir(), p.notifications().poll(),
        health.beat(Part.NOTIFIER)), Props.empty());
    AtomicReference<ActorRef<Scheduler.Command>> known = new AtomicReference<>();
    ActorRef<Reconciler.Command> reconciler = spawner.spawn(Part.RECONCILER, Reconciler.create(p.checks(),
        s.cfg().reconcileInterval(), p.blocking(), known::get, health.beat(Part.RECONCILER)), Props.empty());
    AtomicReference<ActorRef<GpuWatcher.Command>> watcher = new AtomicReference<>();
    AtomicReference<ActorRef<ClusterBridge.Command>> cluster = new AtomicReference<>();
    var effects = new Wiring(s, p, m.failures(), new Wiring.Children(reconciler, projector, notifier, writes, watcher, cluster));
    ActorRef<Scheduler.Command> scheduler = spawner.spawn(Part.SCHEDULER, Scheduler.create(s.scheduling(), effects),
        Props.empty());
    known.set(scheduler);
    cluster.set(spawner.spawn(Part.CLUSTER, ClusterBridge.create(scheduler, s.cfg().paths().dataDir(),
        p::stored, System.getenv(), health.beat(Part.CLUSTER)), DispatcherSelector.blocking()));
    watcher.set(spawner.spawn(Part.GPU_WATCHER, GpuWatcher.create(p.observe(), p.probe(), scheduler,
        s.cfg().pollInterval(), p.blocking(), clock, health.beat(Part.GPU_WATCHER)), Props.empty()));
    // what each GPU did, for 'gq report': started again like the others, but never a reason to stop the daemon
    ActorRef<GpuTimeline.Command> timeline = spawner.spawn(Part.GPU_TIMELINE, GpuTimeline.create(scheduler,
        s.cfg().paths().database(), s.cfg().pollInterval(), clock, health.beat(Part.GPU_TIMELINE)),
        DispatcherSelector.blocking());
    m.replyTo().tell(new Started(scheduler, projector, timeline));
    return watching(health, s.backoff(), m.failures()::failed, watched);
  }

  /** Spawns each part under {@link Supervision} and watches it. */
  private record Spawner(ActorContext<Command> ctx, DaemonSettings s, PartHealth health, Map<ActorRef<?>, Part> watched) {
    <T> ActorRef<T> spawn(Part part, Behavior<T> behavior, Props props) {
      return spawnPart(ctx, part, Supervision.supervised(part, behavior, health, s.faults(), s.backoff()), props, watched);
    }
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
   * another after too many restarts): the daemon must not go on without an essential part, so
   * {@code stopDaemon} hears the one line that says why; a part it can do without (the GPU
   * timeline) stays stopped, logged and shown so.
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
      String line = "the " + part.text() + " failed" + times + " (" + why + ")";
      if (part.essential()) stopDaemon.accept(line);
      else LOG.error("{}; the daemon goes on without it until the daemon is restarted", line);
      return Behaviors.same();
    });
  }
}

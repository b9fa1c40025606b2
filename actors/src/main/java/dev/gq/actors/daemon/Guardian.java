package dev.gq.actors.daemon;

import dev.gq.actors.notify.Notifier;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.reconciler.JobChecks;
import dev.gq.actors.reconciler.Reconciler;
import dev.gq.actors.runner.RunnerDeps;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.watcher.GpuWatcher;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.JobHistory;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor system's root. It waits for {@link Start}, sent by the daemon once the job history has
 * caught up with the journal, then spawns its children in the order recovery needs: the Projector
 * (on the blocking dispatcher), the Notifier (which follows the journal on its own thread), the Reconciler, the Scheduler (which replays its events and asks the
 * Reconciler for the start-up pass) and the GpuWatcher, and replies with the references the socket
 * server needs. Each child supervises itself as before (the Scheduler restarts with backoff when a
 * write fails; the others stop on a failure); stopping the system stops them all, children first.
 */
final class Guardian {
  sealed interface Command {}
  /** Spawn the children from {@code parts} and reply with the references. */
  record Start(Parts parts, ActorRef<Started> replyTo) implements Command {}
  /** What the children are made of; {@code replayFailed} hears a Scheduler that cannot replay. */
  record Parts(DaemonConfig cfg, RunnerDeps runnerDeps, JobChecks checks, JobHistory jobHistory, JournalReader journal,
      Supplier<GpuObservation> observe, GpuProbe probe, Executor blocking, JobFileScan files,
      Consumer<Throwable> replayFailed, Clock clock, dev.gq.actors.notify.Notifications notifications) {}
  /** The children the rest of the daemon talks to. */
  record Started(ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector) {}

  private Guardian() {}

  static Behavior<Command> create() {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class).onMessage(Start.class, s -> start(ctx, s)).build());
  }

  private static Behavior<Command> start(ActorContext<Command> ctx, Start m) {
    Parts s = m.parts();
    ActorRef<Projector.Command> projector =
        ctx.spawn(Projector.create(s.jobHistory(), s.journal()), "projector", DispatcherSelector.blocking());
    ActorRef<Notifier.Command> notifier = ctx.spawn(Notifier.create(s.notifications(), s.jobHistory(), s.journal(), projector,
        s.cfg().paths().dataDir(), s.notifications().poll()), "notifier", Props.empty());
    ActorRef<Reconciler.Command> reconciler =
        ctx.spawn(Reconciler.create(s.checks(), s.cfg().reconcileInterval(), s.blocking()), "reconciler", Props.empty());
    AtomicReference<ActorRef<GpuWatcher.Command>> watcher = new AtomicReference<>();
    AtomicReference<ActorRef<dev.gq.actors.cluster.ClusterBridge.Command>> cluster = new AtomicReference<>();
    var deps = new Wiring(s.cfg(), s.runnerDeps(), reconciler, projector, watcher, s.files(), s.replayFailed(), s.clock(),
        notifier, cluster);
    ActorRef<Scheduler.Command> scheduler = ctx.spawn(Scheduler.create(deps), "scheduler", Props.empty());
    cluster.set(ctx.spawn(dev.gq.actors.cluster.ClusterBridge.create(scheduler, s.cfg().paths().dataDir(),
        s.runnerDeps().stored(), System.getenv()), "cluster-bridge", DispatcherSelector.blocking()));
    watcher.set(ctx.spawn(GpuWatcher.create(s.observe(), s.probe(), scheduler, s.cfg().pollInterval(), s.blocking(), s.clock()),
        "gpu-watcher", Props.empty()));
    m.replyTo().tell(new Started(scheduler, projector));
    return Behaviors.empty();
  }
}

package dev.gq.actors.runner;

import dev.gq.core.schedule.Request;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTree;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one adopted job, the runner of a process gq did not start: its processes are the adopted
 * process (pid, start ticks, boot id) and the descendants seen of it ({@link ProcessTree#alive}),
 * looked at every liveness poll; when none is left it reports the end (no exit status exists) with
 * a GPU reading taken after, like a launched job's runner. Meanwhile it holds the job's GPUs'
 * machine-wide leases for it (the process took none), so another gq sees them held. A cancel sends SIGTERM, then SIGKILL after
 * the grace period, to each of those processes one by one through the signaller, which proves each
 * before its signal; never to a process group or session. It takes the JobRunner's {@code Cancel};
 * spawn it with {@link #watch}. Not persistent.
 */
public final class AdoptedRunner extends AbstractBehavior<Object> {
  private static final Logger LOG = LoggerFactory.getLogger(AdoptedRunner.class);
  /** Leases not held (another gq's job holds one): nothing to let go. */
  private static final GpuLeases.Held NOTHING = new GpuLeases.Held() {
    @Override public List<Integer> fds() {
      return List.of();
    }
    @Override public void close() {}
  };
  private record Tick() {}
  private record Looked(Set<ProcessRef> alive, long endedNanos, GpuObservation after, long afterNanos) {}
  private record KillNow() {}

  private final Job job;
  private final ProcessIdentity root;
  private final RunnerDeps deps;
  private final ActorRef<Request.Fact> scheduler;
  private final TimerScheduler<Object> timers;
  /** The adopted process and every descendant seen of it, still alive at the last look. */
  private Set<ProcessRef> tree;
  /** This daemon's hold on the job's GPUs' machine-wide leases: the adopted process holds none of its own. */
  private final AtomicReference<GpuLeases.Held> leases =
      new AtomicReference<>();
  private boolean looking;
  private boolean cancelled;

  private AdoptedRunner(ActorContext<Object> ctx, TimerScheduler<Object> timers, Job job, RunnerDeps deps,
      ActorRef<Request.Fact> scheduler) {
    super(ctx);
    this.timers = timers;
    this.job = job;
    this.root = job.identity();
    this.deps = deps;
    this.scheduler = scheduler;
    this.tree = Set.of(new ProcessRef(root.pid(), root.startTicks()));
  }

  /** The runner of adopted job {@code job}, as the JobRunner's protocol sees it. */
  public static Behavior<JobRunner.Command> watch(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler) {
    Behavior<Object> b = Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      AdoptedRunner r = new AdoptedRunner(ctx, t, job, deps, scheduler);
      t.startTimerWithFixedDelay("tick", new Tick(), deps.settings().livenessPoll());
      ctx.getSelf().tell(new Tick());
      if (job.state() == JobState.CANCELLING) ctx.getSelf().tell(new JobRunner.Cancel());
      return r;
    }));
    return b.narrow();
  }

  @Override
  public Receive<Object> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, m -> look())
        .onMessage(Looked.class, this::onLooked)
        .onMessage(JobRunner.Cancel.class, m -> cancel())
        .onMessage(KillNow.class, m -> signal(9))
        .onSignal(PostStop.class, sig -> {
          release();
          return this;
        })
        .build();
  }

  private Behavior<Object> look() {
    if (looking) return this;
    looking = true;
    Set<ProcessRef> known = tree;
    getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> looked(known), deps.effects().blocking()),
        (m, err) -> err != null ? new Looked(known, 0, null, 0) : m);
    return this;
  }

  /** What is left of the tree, and once nothing is, a GPU reading taken after. Blocks. */
  private Looked looked(Set<ProcessRef> known) {
    if (leases.get() == null && !job.gpus().isEmpty()) takeLeases();
    boolean sameBoot = deps.effects().procs().bootId().equals(root.bootId());
    List<ProcInfo> all = sameBoot ? deps.effects().procs().all() : List.of();
    Set<ProcessRef> alive = ProcessTree.alive(known, all);
    if (!alive.isEmpty()) return new Looked(alive, 0, null, 0);
    long ended = System.nanoTime();
    release();
    if (job.gpus().isEmpty()) return new Looked(alive, ended, null, 0);
    long taken = Math.max(System.nanoTime(), ended + 1);
    GpuObservation after;
    try {
      after = deps.effects().readGpus();
    } catch (RuntimeException e) {
      after = null; // the Scheduler then asks the watcher for one
    }
    return new Looked(alive, ended, after, taken);
  }

  /**
   * Takes the job's GPUs' leases for as long as this runner watches it, so that another gq on the
   * machine sees them held; one held by another gq's job (taken between the reading adopt decided on
   * and now) is left to it, and the GPU then shows UNKNOWN here.
   */
  private void takeLeases() {
    List<String> uuids = job.gpus().stream().map(GpuSlot::uuid).toList();
    try {
      leases.set(deps.effects().leases().take(uuids, new LeaseHolder(deps.settings().self(), job.id())));
    } catch (GpuLeases.Taken e) {
      leases.set(NOTHING);
      LOG.warn("job {}: cannot hold its GPUs' machine-wide leases: {}", job.id(), e.getMessage());
    }
  }

  private void release() {
    var held = leases.getAndSet(null);
    if (held != null) held.close();
  }

  private Behavior<Object> onLooked(Looked m) {
    looking = false;
    tree = m.alive();
    if (!tree.isEmpty()) return this;
    getContext().getLog().info("job {}: the adopted process {} and its descendants are gone", job.id(), root.pid());
    scheduler.tell(new Request.Ended(job.id(), EndSeen.NOTHING, m.endedNanos(), m.after(), m.afterNanos()));
    return Behaviors.stopped();
  }

  private Behavior<Object> cancel() {
    if (cancelled) return this;
    cancelled = true;
    signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.settings().cancelGrace());
    return this;
  }

  /** Signals the processes of the tree as last seen, plus what /proc shows of it now. */
  private Behavior<Object> signal(int sig) {
    Set<ProcessRef> now = ProcessTree.alive(tree, deps.effects().procs().all());
    int sent = deps.effects().signals().signalTree(root, now, sig);
    getContext().getLog().info("job {}: signal {} to {} adopted process(es), each proved by its start ticks", job.id(), sig, sent);
    if (!now.isEmpty()) tree = now;
    return look();
  }
}

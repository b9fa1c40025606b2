package dev.gq.actors.runner;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchException;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.launch.Signals;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.proc.JobProcesses;
import dev.gq.core.proc.ProcessIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Runs one job: takes its GPUs' machine-wide leases and launches it, the job inheriting the leases
 * (a lease another gq's job holds sends the job back to the queue), or, after a daemon restart, watches the processes that already run),
 * tells the Scheduler its identity, notices when the shim has exited and no process of the job is
 * left (none in its session or group, none anywhere carrying its GQ_JOB_TAG), and reports the exit
 * record with a GPU reading taken after that, on which the Scheduler may hand the job's GPUs on.
 * Cancels with SIGTERM to the group (and to the job's processes outside it, found by its tag), then SIGKILL
 * after the grace period, and stops a job that runs past its time limit the same way (reporting
 * that it timed out); the signaller re-verifies identity before each signal. Not persistent: the
 * Scheduler records every fact it reports.
 */
public final class JobRunner extends AbstractBehavior<JobRunner.Command> {

  public sealed interface Command {}
  public record Cancel() implements Command {}
  private record Spawned(LaunchedProcess process) implements Command {}
  /** {@code exitCode}: what a shell reports for the same failure (127: the command cannot be run), or null. */
  private record SpawnFailed(String reason, Integer exitCode) implements Command {
    SpawnFailed(String reason) {
      this(reason, null);
    }
  }
  private record LeaseTaken(String reason) implements Command {}
  private record LeaderExited() implements Command {}
  private record Tick() implements Command {}
  /** {@code endedNanos}: when every process was seen gone; {@code after}: a reading taken after that (null: none). */
  private record Members(boolean anyLeft, long endedNanos, GpuObservation after, long afterNanos,
      Optional<ExitRecord> record) implements Command {}
  private record KillNow() implements Command {}
  private record LimitReached() implements Command {}

  // The daemon is never a job's process, though one started from inside a job carries its tag.
  private static final long SELF = ProcessHandle.current().pid();

  private final Job job;
  private final RunnerDeps deps;
  /** The leases this daemon holds for the job, until every process of it is gone (the job holds its own copies). */
  private final java.util.concurrent.atomic.AtomicReference<GpuLeases.Held> leases = new java.util.concurrent.atomic.AtomicReference<>();
  private final ActorRef<Scheduler.Command> scheduler;
  private final TimerScheduler<Command> timers;
  private ProcessIdentity identity;
  private boolean leaderGone;
  private boolean cancelRequested;
  private boolean timedOut;
  private boolean checking;
  /** The Scheduler was told that the job's processes are gone, so its end is on its way. */
  private boolean toldEnding;

  private JobRunner(ActorContext<Command> ctx, TimerScheduler<Command> timers, Job job, RunnerDeps deps,
      ActorRef<Scheduler.Command> scheduler) {
    super(ctx);
    this.timers = timers;
    this.job = job;
    this.deps = deps;
    this.scheduler = scheduler;
  }

  public static Behavior<Command> launch(Job job, RunnerDeps deps, ActorRef<Scheduler.Command> scheduler) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler);
      ctx.pipeToSelf(CompletableFuture.supplyAsync(r::spawn, deps.blocking()),
          (cmd, err) -> err != null ? new SpawnFailed("cannot start the job: " + err.getMessage()) : cmd);
      return r;
    }));
  }

  public static Behavior<Command> reattach(Job job, RunnerDeps deps, ActorRef<Scheduler.Command> scheduler) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler);
      r.identity = job.identity();
      t.startTimerWithFixedDelay("tick", new Tick(), deps.livenessPoll());
      if (job.state() == dev.gq.core.job.JobState.CANCELLING) r.cancel();
      else r.watchLimit();
      return r;
    }));
  }

  /** Reads the job's command and log path from the database unless they came with the job, then launches it. Blocks. */
  private Command spawn() {
    Job whole;
    try {
      if (job.spec().hasCommand() && job.logPath() != null) whole = job;
      else {
        Job stored = deps.stored().apply(job.id());
        whole = job.withStored(stored.spec(), stored.logPath());
      }
    } catch (RuntimeException e) {
      return new SpawnFailed("cannot read the job's command from the database: " + e.getMessage());
    }
    JobSpec full = whole.spec();
    try {
      if (!deps.testLaunchDelay().isZero()) Thread.sleep(deps.testLaunchDelay().toMillis());
      List<String> uuids = job.gpus().stream().map(dev.gq.core.job.GpuSlot::uuid).toList();
      GpuLeases.Held held = deps.leases().take(uuids, new LeaseHolder(deps.self(), job.id()));
      leases.set(held);
      LaunchSpec spec = new LaunchSpec(job.id(), full.argv(), Path.of(full.cwd()), JobEnvironment.of(whole),
          Path.of(whole.logPath()), deps.exitFile().apply(job.id()), held.fds());
      return new Spawned(deps.launcher().launch(spec));
    } catch (GpuLeases.Taken e) {
      return new LeaseTaken(e.getMessage());
    } catch (LaunchException e) {
      releaseLeases();
      return new SpawnFailed(e.getMessage(), e.exitCode());
    } catch (InterruptedException e) {
      releaseLeases();
      Thread.currentThread().interrupt();
      return new SpawnFailed("the daemon stopped before the job could start");
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Spawned.class, this::onSpawned)
        .onMessage(SpawnFailed.class, this::onSpawnFailed)
        .onMessage(LeaseTaken.class, m -> {
          scheduler.tell(new Scheduler.LaunchDeferred(job.id(), m.reason()));
          return Behaviors.stopped();
        })
        .onMessage(LeaderExited.class, m -> onLeaderExited())
        .onMessage(Tick.class, m -> onTick())
        .onMessage(Members.class, this::onMembers)
        .onMessage(Cancel.class, m -> cancel())
        .onMessage(KillNow.class, m -> kill())
        .onMessage(LimitReached.class, m -> stopAtLimit())
        .onSignal(org.apache.pekko.actor.typed.PostStop.class, s -> {
          releaseLeases();
          return this;
        })
        .build();
  }

  /** Lets go of this daemon's copies of the job's leases (the job's processes keep theirs). */
  private void releaseLeases() {
    GpuLeases.Held held = leases.getAndSet(null);
    if (held != null) held.close();
  }

  /** Nothing was started; a command that cannot be run ends the job with the shell's status for it. */
  private Behavior<Command> onSpawnFailed(SpawnFailed m) {
    if (m.exitCode() == null) scheduler.tell(new Scheduler.LaunchFailed(job.id(), m.reason()));
    else scheduler.tell(new Scheduler.Ended(job.id(), m.exitCode(), m.reason()));
    return Behaviors.stopped();
  }

  private Behavior<Command> onSpawned(Spawned m) {
    identity = m.process().identity();
    scheduler.tell(new Scheduler.Launched(job.id(), identity));
    getContext().pipeToSelf(m.process().shimExited(), (ok, err) -> new LeaderExited());
    if (cancelRequested) signal(15);
    else watchLimit();
    return this;
  }

  /** Arms the time limit, counted from the reservation; one already passed (daemon was down) fires at once. */
  private void watchLimit() {
    Duration limit = job.spec().timeLimit();
    if (limit == null) return;
    Instant start = job.startTime() != null ? job.startTime() : Instant.now();
    Duration left = Duration.between(Instant.now(), start.plus(limit));
    timers.startSingleTimer("limit", new LimitReached(), left.isNegative() ? Duration.ZERO : left);
  }

  private Behavior<Command> stopAtLimit() {
    if (cancelRequested || timedOut) return this;
    timedOut = true;
    getContext().getLog().info("job {}: reached its time limit of {}; stopping it", job.id(),
        dev.gq.core.job.Durations.format(job.spec().timeLimit()));
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.cancelGrace());
    return this;
  }

  private Behavior<Command> onLeaderExited() {
    leaderGone = true;
    ending(true);
    checkMembers();
    return this;
  }

  private Behavior<Command> onTick() {
    if (identity == null) return this;
    if (!leaderGone) {
      Optional<ProcInfo> leader = deps.procs().info(identity.pid());
      leaderGone = leader.isEmpty() || leader.get().zombie() || !identity.matches(leader.get(), deps.procs().bootId());
    }
    if (leaderGone) checkMembers();
    return this;
  }

  private void checkMembers() {
    if (checking) return;
    checking = true;
    long pgid = identity.pgid(), sid = identity.sid();
    getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> members(pgid, sid), deps.blocking()),
        (m, err) -> err != null ? new Members(true, 0, null, 0, Optional.empty()) : m);
  }

  /**
   * Whether any process of the job lives, the exit record (one read of the file), and, when none
   * lives and the job held GPUs, a GPU reading taken after that. Blocks.
   */
  private Members members(long pgid, long sid) {
    Optional<String> content = deps.exitContent().apply(deps.exitFile().apply(job.id()));
    Optional<ExitRecord> record = content.flatMap(ExitRecord::parse);
    // The shim saw nothing the job started left as it ended, so nothing of its session or group
    // can be: only a process carrying the job's tag from elsewhere is left to look for.
    boolean any;
    if (content.map(ExitRecord::leftNothing).orElse(false)) {
      any = JobProcesses.anyCarryingTag(deps.procs().pids(), SELF, this::carriesTag);
    } else {
      List<ProcInfo> all = deps.procs().all();
      any = JobProcesses.anyLeft(pgid, sid, all, all.stream().map(ProcInfo::pid).toList(), SELF, this::carriesTag);
    }
    if (any) return new Members(true, 0, null, 0, record);
    // the shim may have written its record and ended between the read above and the scan
    if (record.isEmpty()) record = deps.exitContent().apply(deps.exitFile().apply(job.id())).flatMap(ExitRecord::parse);
    long ended = System.nanoTime();
    // the daemon's copies go before the reading, which then sees the lease free unless something of
    // the job (a process that left its session and tag behind) still holds it
    releaseLeases();
    if (job.gpus().isEmpty()) return new Members(false, ended, null, 0, record);
    // begun after the processes were seen gone, so strictly later, even on a clock that did not tick
    long taken = Math.max(System.nanoTime(), ended + 1);
    return new Members(false, ended, readGpus(), taken, record);
  }

  private boolean carriesTag(long pid) {
    return job.tag() != null && deps.procs().carries(pid, "GQ_JOB_TAG", job.tag());
  }

  /** A GPU reading, or null when taking it failed (the Scheduler then asks the watcher for one). */
  private GpuObservation readGpus() {
    try {
      return deps.readGpus().get();
    } catch (RuntimeException e) {
      // off the actor's thread: its context must not be touched here
      org.slf4j.LoggerFactory.getLogger(JobRunner.class).warn("job {}: GPU reading after its end failed: {}", job.id(), e.toString());
      return null;
    }
  }

  private Behavior<Command> onMembers(Members m) {
    checking = false;
    if (m.anyLeft()) {
      ending(false);
      if (!timers.isTimerActive("tick")) timers.startTimerWithFixedDelay("tick", new Tick(), deps.livenessPoll());
      return this;
    }
    Optional<ExitRecord> rec = m.record();
    Path exitFile = deps.exitFile().apply(job.id());
    String full = DiskSpace.fullNote(exitFile.getParent());
    // Room for the events that record this ending.
    if (full != null && DiskSpace.releaseReserve(exitFile.getParent().getParent()))
      getContext().getLog().warn("{}; gave up the reserve file to record job {}", full, job.id());
    if (rec.isEmpty()) {
      String why = full == null ? null : "the job ended but its exit status could not be written: " + full;
      scheduler.tell(new Scheduler.Ended(job.id(), null, why, timedOut, m.endedNanos(), m.after(), m.afterNanos()));
    } else {
      ExitRecord r = rec.get();
      String reason = r.kind() == ExitRecord.Kind.EXEC_FAILED ? r.text() : null;
      if (full != null && r.exitCode() != 0)
        reason = (reason == null ? dev.gq.core.ledger.Outcomes.describe(r.exitCode()) : reason)
            + "; " + full + ", so its log may be cut short";
      scheduler.tell(new Scheduler.Ended(job.id(), r.exitCode(), reason, timedOut, m.endedNanos(), m.after(), m.afterNanos()));
    }
    return Behaviors.stopped();
  }

  /** Tells the Scheduler once that the job's end is on its way, and once that it was not after all. */
  private void ending(boolean gone) {
    if (gone == toldEnding) return;
    toldEnding = gone;
    scheduler.tell(new Scheduler.Ending(job.id(), gone));
  }

  private Behavior<Command> cancel() {
    if (cancelRequested) return this;
    cancelRequested = true;
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.cancelGrace());
    return this;
  }

  private Behavior<Command> kill() {
    if (identity != null) signal(9);
    return this;
  }

  private void signal(int sig) {
    Signals.Outcome o = deps.signals().signalGroup(identity, sig);
    getContext().getLog().info("job {}: signal {} to process group {}: {}", job.id(), sig, identity.pgid(), o);
    int detached = deps.signals().signalTagged(identity, job.tag(), sig);
    if (detached > 0)
      getContext().getLog().info("job {}: signal {} to {} process(es) outside its session carrying its tag", job.id(), sig, detached);
    if (o != Signals.Outcome.SENT) onTick();
  }
}

package dev.gq.actors.runner;

import dev.gq.core.schedule.Request;

import dev.gq.core.job.Job;
import dev.gq.core.job.TimeLimits;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.launch.Signals;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.host.resume.CheckpointFiles;
import java.time.Duration;
import java.time.Instant;
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
 * that it timed out); the signaller re-verifies identity before each signal. A preemption sends its
 * signal to the job's main process (or its group), and stops the job as a cancel does once the grace
 * is over, noting the age of its newest checkpoint. Not persistent: the
 * Scheduler records every fact it reports. The blocking launch is {@link JobLaunch}'s; telling
 * that the job has ended, and what to report, is {@link JobEnd}'s.
 */
public final class JobRunner extends AbstractBehavior<JobRunner.Command> {

  public sealed interface Command {}
  public record Cancel() implements Command {}
  /** Asks the job to save and stop as {@code preemption} says; stops it as a cancel does once its grace is over. */
  public record Preempt(dev.gq.core.ledger.Preemption preemption) implements Command {}
  private record GraceOver() implements Command {}
  /** The job ignored the preemption's signal; {@code note} says so, with the age of its newest checkpoint. */
  private record Ignored(String note) implements Command {}
  record Spawned(LaunchedProcess process) implements Command {}
  /** {@code exitCode}: what a shell reports for the same failure (127: the command cannot be run), or null. */
  record SpawnFailed(String reason, Integer exitCode) implements Command {
    SpawnFailed(String reason) {
      this(reason, null);
    }
  }
  record LeaseTaken(String reason) implements Command {}
  /** The shim exited, with {@code status} (null: unknown). */
  private record LeaderExited(Integer status) implements Command {}
  private record Tick() implements Command {}
  /** {@code endedNanos}: when every process was seen gone; {@code after}: a reading taken after that (null: none). */
  record Members(boolean anyLeft, long endedNanos, GpuObservation after, long afterNanos,
      Optional<ExitRecord> record) implements Command {}
  private record KillNow() implements Command {}
  private record LimitReached() implements Command {}

  private final Job job;
  private final RunnerDeps deps;
  /** Launches the job and holds this daemon's copies of its leases until every process of it is gone. */
  private final JobLaunch launch;
  private final ActorRef<Request.Fact> scheduler;
  private final TimerScheduler<Command> timers;
  private ProcessIdentity identity;
  private boolean leaderGone;
  /** The status the shim this runner launched exited with, or null (unknown, or a job watched after a restart). */
  private Integer shimStatus;
  private boolean cancelRequested;
  /** The preemption under way, or null. */
  private dev.gq.core.ledger.Preemption preemption;
  /** Why a preempted job was stopped after its grace (it ignored the signal), or null. */
  private String ignoredNote;
  private boolean timedOut;
  private boolean checking;
  /** The Scheduler was told that the job's processes are gone, so its end is on its way. */
  private boolean toldEnding;
  /** When this runner began, the limit's start for a job that has no start time. */
  private final Instant launchedAt;

  private JobRunner(ActorContext<Command> ctx, TimerScheduler<Command> timers, Job job, RunnerDeps deps,
      ActorRef<Request.Fact> scheduler, java.util.Map<String, Long> totalMiB) {
    super(ctx);
    this.timers = timers;
    this.job = job;
    this.deps = deps;
    this.scheduler = scheduler;
    this.launch = new JobLaunch(job, deps, totalMiB);
    this.launchedAt = deps.clock().instant();
  }

  public static Behavior<Command> launch(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler) {
    return launch(job, deps, scheduler, java.util.Map.of());
  }

  /**
   * Launches {@code job}; {@code totalMiB}: the total memory of its GPUs (by UUID) in the reading it
   * was reserved on, which a shared job's shares are taken against.
   */
  public static Behavior<Command> launch(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler,
      java.util.Map<String, Long> totalMiB) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler, totalMiB);
      ctx.pipeToSelf(CompletableFuture.supplyAsync(r.launch::spawn, deps.blocking()),
          (cmd, err) -> err != null ? new SpawnFailed("cannot start the job: " + err.getMessage()) : cmd);
      return r;
    }));
  }

  public static Behavior<Command> reattach(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler, java.util.Map.of());
      r.identity = job.identity();
      t.startTimerWithFixedDelay("tick", new Tick(), deps.livenessPoll());
      if (job.state() == dev.gq.core.job.JobState.CANCELLING) r.cancel();
      else r.watchLimit();
      return r;
    }));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Spawned.class, this::onSpawned)
        .onMessage(SpawnFailed.class, this::onSpawnFailed)
        .onMessage(LeaseTaken.class, m -> {
          scheduler.tell(new Request.LaunchDeferred(job.id(), m.reason()));
          return Behaviors.stopped();
        })
        .onMessage(LeaderExited.class, this::onLeaderExited)
        .onMessage(Tick.class, m -> onTick())
        .onMessage(Members.class, this::onMembers)
        .onMessage(Cancel.class, m -> cancel())
        .onMessage(Preempt.class, m -> preempt(m.preemption()))
        .onMessage(GraceOver.class, m -> graceOver())
        .onMessage(Ignored.class, this::onIgnored)
        .onMessage(KillNow.class, m -> kill())
        .onMessage(LimitReached.class, m -> stopAtLimit())
        .onSignal(org.apache.pekko.actor.typed.PostStop.class, s -> {
          launch.release();
          return this;
        })
        .build();
  }

  /** Nothing was started; a command that cannot be run ends the job with the shell's status for it. */
  private Behavior<Command> onSpawnFailed(SpawnFailed m) {
    if (m.exitCode() == null) scheduler.tell(new Request.LaunchFailed(job.id(), m.reason()));
    else scheduler.tell(new Request.Ended(job.id(), m.exitCode(), m.reason()));
    return Behaviors.stopped();
  }

  private Behavior<Command> onSpawned(Spawned m) {
    identity = m.process().identity();
    scheduler.tell(new Request.Launched(job.id(), identity));
    getContext().pipeToSelf(m.process().shimExited(), (status, err) -> new LeaderExited(err == null ? status : null));
    if (cancelRequested) signal(15);
    else if (preemption != null) askToSave();
    else watchLimit();
    return this;
  }

  /**
   * Arms the time limit, counted from the reservation; one already passed (daemon was down) fires at
   * once. The timer waits at most {@link TimeLimits#LONGEST_WAIT} and is armed again when it fires
   * early, so no limit, however far, overflows it.
   */
  private void watchLimit() {
    Duration limit = job.spec().timeLimit();
    if (limit == null) return;
    timers.startSingleTimer("limit", new LimitReached(), TimeLimits.wait(limitStart(), limit, deps.clock().instant()));
  }

  private Instant limitStart() {
    return job.startTime() != null ? job.startTime() : launchedAt;
  }

  private Behavior<Command> stopAtLimit() {
    if (cancelRequested || timedOut || preemption != null) return this;
    if (!TimeLimits.reached(limitStart(), job.spec().timeLimit(), deps.clock().instant())) {
      watchLimit();
      return this;
    }
    timedOut = true;
    getContext().getLog().info("job {}: reached its time limit of {}; stopping it", job.id(),
        dev.gq.core.job.Durations.format(job.spec().timeLimit()));
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.cancelGrace());
    return this;
  }

  private Behavior<Command> onLeaderExited(LeaderExited m) {
    leaderGone = true;
    shimStatus = m.status();
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
    getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> JobEnd.members(job, deps, pgid, sid, launch::release),
            deps.blocking()),
        (m, err) -> err != null ? new Members(true, 0, null, 0, Optional.empty()) : m);
  }

  private Behavior<Command> onMembers(Members m) {
    checking = false;
    if (m.anyLeft()) {
      ending(false);
      if (!timers.isTimerActive("tick")) timers.startTimerWithFixedDelay("tick", new Tick(), deps.livenessPoll());
      return this;
    }
    Request.Ended ended = JobEnd.report(job, deps, m, timedOut, shimStatus, getContext().getLog());
    if (preemption != null) ended = preempted(ended);
    scheduler.tell(ended);
    return Behaviors.stopped();
  }

  /** Tells the Scheduler once that the job's end is on its way, and once that it was not after all. */
  private void ending(boolean gone) {
    if (gone == toldEnding) return;
    toldEnding = gone;
    scheduler.tell(new Request.Ending(job.id(), gone));
  }

  private Behavior<Command> cancel() {
    if (cancelRequested) return this;
    cancelRequested = true;
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.cancelGrace());
    return this;
  }

  /**
   * A preemption: the signal now (or once the job has launched), and the stop when the grace is over,
   * counted from the request (after a daemon restart, what is left of it; the signal goes again).
   */
  private Behavior<Command> preempt(dev.gq.core.ledger.Preemption p) {
    if (cancelRequested || preemption != null) return this;
    preemption = p;
    timers.cancel("limit");
    if (identity != null) askToSave();
    Duration left = Duration.between(deps.clock().instant(), p.deadline());
    timers.startSingleTimer("grace", new GraceOver(), left.isNegative() ? Duration.ZERO : left);
    return this;
  }

  private void askToSave() {
    int sig = preemption.signal();
    if (preemption.group()) {
      signal(sig);
      return;
    }
    Signals.Outcome o = deps.signals().signalMain(identity, job.tag(), sig);
    getContext().getLog().info("job {}: preempted: SIG{} to its main process: {}", job.id(), preemption.signalName(), o);
    if (o != Signals.Outcome.SENT) onTick();
  }

  /** The grace is over and the job still runs: say how old its newest checkpoint is, then stop it. */
  private Behavior<Command> graceOver() {
    if (cancelRequested || toldEnding) return this;
    Duration grace = preemption.grace();
    String sig = "SIG" + preemption.signalName();
    Instant now = deps.clock().instant();
    getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> {
      Job stored = job.spec().hasCommand() ? job : deps.stored().apply(job.id());
      return CheckpointFiles.newest(stored.spec().argv(), stored.spec().cwd()).map(f -> "newest checkpoint " + f.describe(now))
          .orElse("no complete checkpoint found");
    }, deps.blocking()), (found, err) -> new Ignored("did not stop within " + dev.gq.core.job.Durations.format(grace)
        + " of " + sig + "; stopped (" + (err != null ? "its checkpoints could not be read" : found) + ")"));
    return this;
  }

  private Behavior<Command> onIgnored(Ignored m) {
    if (cancelRequested) return this;
    ignoredNote = m.note();
    getContext().getLog().warn("job {}: {}", job.id(), m.note());
    cancelRequested = true;
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.cancelGrace());
    return this;
  }

  /** The end of a preempted job: why it stopped, with the exit status it left. */
  private Request.Ended preempted(Request.Ended e) {
    String how = e.reason() != null ? e.reason() : dev.gq.core.ledger.EndStates.describe(e.exitCode());
    String reason = ignoredNote != null ? "preempted: " + ignoredNote + "; " + how
        : "preempted (SIG" + preemption.signalName() + "); " + how;
    return new Request.Ended(e.jobId(), e.exitCode(), reason, false, e.endedNanos(), e.after(), e.afterNanos(), e.endedAt());
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

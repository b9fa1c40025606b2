package dev.gq.actors.runner;

import dev.gq.core.end.PreemptIgnored;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.schedule.Request;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Runs one job: launches it ({@link JobLaunch}: its GPUs' machine-wide leases, which the job inherits;
 * a lease another gq's job holds sends it back to the queue), or after a daemon restart watches the
 * processes that already run; tells the Scheduler its identity; notices when the shim has exited and
 * no process of the job is left, and reports how it ended with a GPU reading taken after that
 * ({@link JobEnd}). Cancels and stops at the time limit ({@link LimitWatch}) with SIGTERM, then SIGKILL
 * after the grace ({@link JobSignals}); a preemption ({@link Preempting}) signals first and stops the
 * job so once its grace is over. Not persistent: the Scheduler records every fact it reports.
 */
public final class JobRunner extends AbstractBehavior<JobRunner.Command> {

  public sealed interface Command {}
  public record Cancel() implements Command {}
  /** Asks the job to save and stop as {@code preemption} says; stops it as a cancel does once its grace is over. */
  public record Preempt(Preemption preemption) implements Command {}
  private record GraceOver() implements Command {}
  /** The job ignored the preemption's signal; {@code found}: what was found of its checkpoints then. */
  private record Ignored(PreemptIgnored found) implements Command {}
  /** What the launch came to. */
  private record Launched(JobLaunch.Outcome outcome) implements Command {}
  /** The shim exited, with {@code status} (null: unknown). */
  private record LeaderExited(Integer status) implements Command {}
  private record Tick() implements Command {}
  /** What was found of the job's processes. */
  private record Checked(JobEnd.Members members) implements Command {}
  private record KillNow() implements Command {}
  private record LimitReached() implements Command {}

  private final Job job;
  private final RunnerDeps deps;
  /** Launches the job and holds this daemon's copies of its leases until every process of it is gone. */
  private final JobLaunch launch;
  private final ActorRef<Request.Fact> scheduler;
  private final TimerScheduler<Command> timers;
  private final JobSignals signals;
  private ProcessIdentity identity;
  private boolean leaderGone;
  /** The status the shim this runner launched exited with, or null (unknown, or a job watched after a restart). */
  private Integer shimStatus;
  private boolean cancelRequested;
  /** The preemption under way, or null. */
  private Preempting preempting;
  private boolean timedOut;
  private boolean checking;
  /** The Scheduler was told that the job's processes are gone, so its end is on its way. */
  private boolean toldEnding;
  /** The log said once that the command exited and processes it left run on. */
  private boolean saidLeft;
  private final LimitWatch limit;

  private JobRunner(ActorContext<Command> ctx, TimerScheduler<Command> timers, Job job, RunnerDeps deps,
      ActorRef<Request.Fact> scheduler, JobLaunch launch) {
    super(ctx);
    this.timers = timers;
    this.job = job;
    this.deps = deps;
    this.scheduler = scheduler;
    this.launch = launch;
    this.signals = new JobSignals(job, deps, ctx.getLog());
    this.limit = new LimitWatch(job, deps.settings().clock());
  }

  /**
   * Launches {@code job}; {@code totalMiB}: the total memory of its GPUs (by UUID) in the reading it
   * was reserved on, which a shared job's shares are taken against. The launch begins here, on the
   * blocking pool, while the caller (the Scheduler, once the job's reservation is stored) goes on, not
   * once the new runner first runs: the behavior returned is to be spawned once, and it owns that launch.
   */
  public static Behavior<Command> launch(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler,
      Map<String, Long> totalMiB) {
    JobLaunch launch = new JobLaunch(job, deps, totalMiB);
    CompletableFuture<JobLaunch.Outcome> spawned = CompletableFuture.supplyAsync(launch::spawn, deps.effects().blocking());
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler, launch);
      ctx.pipeToSelf(spawned, (o, err) -> new Launched(err != null ? new JobLaunch.Failed(new LaunchProblem(LaunchProblem.Cause.RUNNER_FAILED, err.getMessage())) : o));
      return r;
    }));
  }

  public static Behavior<Command> reattach(Job job, RunnerDeps deps, ActorRef<Request.Fact> scheduler) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      JobRunner r = new JobRunner(ctx, t, job, deps, scheduler, new JobLaunch(job, deps, Map.of()));
      r.identity = job.identity();
      t.startTimerWithFixedDelay("tick", new Tick(), deps.settings().livenessPoll());
      if (job.state() == JobState.CANCELLING) r.cancel();
      else r.watchLimit();
      return r;
    }));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Launched.class, m -> launched(m.outcome()))
        .onMessage(LeaderExited.class, this::onLeaderExited)
        .onMessage(Tick.class, m -> onTick())
        .onMessage(Checked.class, m -> onMembers(m.members()))
        .onMessage(Cancel.class, m -> cancel())
        .onMessage(Preempt.class, m -> preempt(m.preemption()))
        .onMessage(GraceOver.class, m -> graceOver())
        .onMessage(Ignored.class, this::onIgnored)
        .onMessage(KillNow.class, m -> identity == null ? this : signal(9))
        .onMessage(LimitReached.class, m -> stopAtLimit())
        .onSignal(PostStop.class, s -> {
          launch.release();
          return this;
        })
        .build();
  }

  /** The job runs; or nothing was started, and the Scheduler hears why ({@link JobLaunch.Outcome#refusal}). */
  private Behavior<Command> launched(JobLaunch.Outcome outcome) {
    if (outcome instanceof JobLaunch.Started s) return onSpawned(s.process());
    scheduler.tell(outcome.refusal(job.id()));
    return Behaviors.stopped();
  }

  private Behavior<Command> onSpawned(LaunchedProcess process) {
    identity = process.identity();
    scheduler.tell(new Request.Launched(job.id(), identity));
    getContext().pipeToSelf(process.shimExited(), (status, err) -> new LeaderExited(err == null ? status : null));
    if (cancelRequested) signal(15);
    else if (preempting != null) askToSave();
    else watchLimit();
    return this;
  }

  private void watchLimit() {
    Duration wait = limit.untilNextLook();
    if (wait != null) timers.startSingleTimer("limit", new LimitReached(), wait);
  }

  private Behavior<Command> stopAtLimit() {
    if (cancelRequested || timedOut || preempting != null) return this;
    if (!limit.reached()) {
      watchLimit();
      return this;
    }
    timedOut = true;
    getContext().getLog().info("job {}: reached its time limit of {}; stopping it", job.id(), limit.shown());
    return stop();
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
    leaderGone = leaderGone || JobEnd.leaderGone(deps, identity);
    if (leaderGone) checkMembers();
    return this;
  }

  private void checkMembers() {
    if (checking) return;
    checking = true;
    getContext().pipeToSelf(JobEnd.membersLater(job, deps, identity, launch::release),
        (m, err) -> new Checked(err != null ? new JobEnd.Members(true, 0, null, 0, Optional.empty()) : m));
  }

  private Behavior<Command> onMembers(JobEnd.Members m) {
    checking = false;
    if (m.anyLeft()) {
      if (!saidLeft) getContext().getLog().info("job {}: its command exited; the job runs until the processes it left end", job.id());
      saidLeft = true;
      ending(false);
      if (!timers.isTimerActive("tick")) timers.startTimerWithFixedDelay("tick", new Tick(), deps.settings().livenessPoll());
      return this;
    }
    Request.Ended ended = JobEnd.report(job, deps, m, timedOut, shimStatus, getContext().getLog());
    if (preempting != null) ended = preempting.ended(ended);
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
    return stop();
  }

  /** SIGTERM to the job now (or once it has launched), SIGKILL after the grace. */
  private Behavior<Command> stop() {
    if (identity != null) signal(15);
    timers.startSingleTimer("kill", new KillNow(), deps.settings().cancelGrace());
    return this;
  }

  /** A preemption: the signal now (or once the job has launched), and the stop when the grace is over. */
  private Behavior<Command> preempt(Preemption p) {
    if (cancelRequested || preempting != null) return this;
    preempting = new Preempting(p);
    timers.cancel("limit");
    if (identity != null) askToSave();
    timers.startSingleTimer("grace", new GraceOver(), preempting.graceLeft(deps.settings().clock().instant()));
    return this;
  }

  private void askToSave() {
    if (!signals.preempt(identity, preempting.preemption())) onTick();
  }

  /** The grace is over and the job still runs: say how old its newest checkpoint is, then stop it. */
  private Behavior<Command> graceOver() {
    if (cancelRequested || toldEnding) return this;
    getContext().pipeToSelf(preempting.ignored(job, deps), (found, err) -> new Ignored(found));
    return this;
  }

  private Behavior<Command> onIgnored(Ignored m) {
    if (cancelRequested) return this;
    preempting.ignored(m.found());
    getContext().getLog().warn("job {}: {}", job.id(), preempting.ignoredNote());
    return cancel();
  }

  private Behavior<Command> signal(int sig) {
    return signals.all(identity, sig) ? this : onTick();
  }
}

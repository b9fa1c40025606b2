package dev.gq.actors.reconciler;

import dev.gq.core.schedule.Request;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.recovery.Drift;
import dev.gq.core.recovery.Recovery;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.slf4j.LoggerFactory;

/**
 * Compares live jobs with /proc, exit records and the GPUs, and reports what it finds to the
 * Scheduler, whose decision concludes by the recovery rules and persists that. At start-up the
 * Scheduler, having replayed its events, sends {@link Reconcile} and serves no request before the
 * {@code Reconciled} reply; it sends the same for ORPHANED jobs whose GPUs came back. After the
 * start-up pass, every {@code interval} it asks the Scheduler for its ledger and re-checks the
 * RUNNING, CANCELLING, PREEMPTING and ORPHANED jobs, reporting what it found and the states it saw as
 * {@code Drifted}, which the Scheduler judges by the same rules ({@link Recovery#recheck}). It never
 * decides whose a job is: the Scheduler, which alone knows its runners, acts only on what
 * {@link Drift} allows when the report arrives: a job a runner watches is the runner's (only an
 * ORPHANED job's return is taken from the pass), a job that changed since the pass read the ledger is
 * skipped, and a job no runner watches gets its verdict. STARTING jobs are never re-checked: their
 * runner is launching them. One pass at a time, the blocking reads on the blocking executor; ticks
 * during a pass make one more pass after it.
 */
public final class Reconciler extends AbstractBehavior<Reconciler.Command> {
  public sealed interface Command {}
  /** Reconciles {@code live} once and replies {@code Reconciled} to {@code replyTo}. */
  public record Reconcile(List<Job> live, ActorRef<Scheduler.Command> replyTo) implements Command {}
  /**
   * Checks {@code jobs} now for the periodic pass's rules (their runner failed: what their
   * processes are doing is not known) and reports what it found as {@code Drifted}.
   */
  public record CheckNow(List<Job> jobs, ActorRef<Scheduler.Command> replyTo) implements Command {}
  private record Tick() implements Command {}
  private record LedgerRead(Ledger ledger) implements Command {}
  private record Checked(Request.Fact report, ActorRef<Scheduler.Command> to, String failure) implements Command {}

  /** The states a periodic pass re-checks. */
  static final Set<JobState> RECHECKED = EnumSet.of(JobState.RUNNING, JobState.CANCELLING, JobState.PREEMPTING,
      JobState.ORPHANED);

  private final JobChecks checks;
  private final Duration interval;
  private final Executor blocking;
  private final TimerScheduler<Command> timers;
  private final Beat beat;
  private final Queue<Command> waiting = new ArrayDeque<>();
  /** Known from the first Reconcile, which only the Scheduler sends. */
  private ActorRef<Scheduler.Command> scheduler;
  private boolean busy;
  /** A tick came during a pass: one more pass right after it. */
  private boolean due;

  private Reconciler(ActorContext<Command> ctx, TimerScheduler<Command> timers, JobChecks checks, Duration interval,
      Executor blocking, Beat beat) {
    super(ctx);
    this.beat = beat;
    this.timers = timers;
    this.checks = checks;
    this.interval = interval;
    this.blocking = blocking;
  }

  public static Behavior<Command> create(JobChecks checks, Duration interval, Executor blocking) {
    return create(checks, interval, blocking, () -> null, Beat.NONE);
  }

  /**
   * The same, telling {@code beat} of each pass; {@code known} gives the Scheduler once it exists,
   * so that a Reconciler started again after a failure resumes its periodic passes at once.
   */
  public static Behavior<Command> create(JobChecks checks, Duration interval, Executor blocking,
      Supplier<ActorRef<Scheduler.Command>> known, Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> {
      Reconciler r = new Reconciler(ctx, t, checks, interval, blocking, beat);
      r.scheduler = known.get();
      if (r.scheduler != null) t.startTimerWithFixedDelay("pass", new Tick(), interval);
      return r;
    }));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Reconcile.class, this::onReconcile)
        .onMessage(CheckNow.class, this::onCheckNow)
        .onMessage(Checked.class, this::onChecked)
        .onMessage(Tick.class, m -> onTick())
        .onMessage(LedgerRead.class, this::onLedger)
        .build();
  }

  private Behavior<Command> onReconcile(Reconcile m) {
    scheduler = m.replyTo();
    if (busy) waiting.add(m);
    // The Scheduler waits for Reconciled: a pass that failed still answers, with nothing found, as before.
    else run(() -> new Request.Reconciled(checks.facts(m.live())), m.replyTo(), new Request.Reconciled(Map.of()));
    return this;
  }

  private Behavior<Command> onCheckNow(CheckNow m) {
    if (busy) {
      waiting.add(m);
      return this;
    }
    Map<Long, JobState> seen = new LinkedHashMap<>();
    m.jobs().forEach(j -> seen.put(j.id(), j.state()));
    run(() -> new Request.Drifted(seen, checks.facts(m.jobs())), m.replyTo(), null);
    return this;
  }

  private Behavior<Command> onTick() {
    if (scheduler == null) return this;
    if (busy) {
      due = true;
      return this;
    }
    busy = true;
    getContext().ask(Ledger.class, scheduler, Duration.ofSeconds(30), Scheduler.GetLedger::new,
        (l, err) -> new LedgerRead(l));
    return this;
  }

  private Behavior<Command> onLedger(LedgerRead m) {
    busy = false;
    if (m.ledger() == null) {
      beat.failing("the scheduler did not hand over its jobs within 30 s; it tries again at the next pass");
      return next();
    }
    Map<Long, JobState> seen = new LinkedHashMap<>();
    m.ledger().live().values().stream().filter(j -> RECHECKED.contains(j.state())).forEach(j -> seen.put(j.id(), j.state()));
    if (seen.isEmpty()) {
      beat.worked();
      return next();
    }
    List<Job> jobs = seen.keySet().stream().map(m.ledger().live()::get).toList();
    run(() -> new Request.Drifted(seen, checks.facts(jobs)), scheduler, null);
    return this;
  }

  /** Runs {@code pass} on the blocking executor; its report goes to {@code to}, or {@code failed} (null: nothing). */
  private void run(Supplier<Request.Fact> pass, ActorRef<Scheduler.Command> to, Request.Fact failed) {
    busy = true;
    getContext().pipeToSelf(CompletableFuture.supplyAsync(pass, blocking), (report, err) -> {
      if (err == null) return new Checked(report, to, null);
      // off the actor's thread: its context must not be touched here
      LoggerFactory.getLogger(Reconciler.class).error("reconciliation failed", err);
      return new Checked(failed, to, Supervision.why(err));
    });
  }

  private Behavior<Command> onChecked(Checked m) {
    busy = false;
    if (m.failure() == null) beat.worked();
    else beat.failing("reconciliation failed: " + m.failure() + "; it tries again at the next pass");
    // the periodic passes begin once the start-up pass is over
    if (!timers.isTimerActive("pass")) timers.startTimerWithFixedDelay("pass", new Tick(), interval);
    boolean nothing = m.report() == null || m.report() instanceof Request.Drifted d && d.facts().isEmpty();
    if (!nothing) m.to().tell(new Scheduler.Report(m.report()));
    return next();
  }

  private Behavior<Command> next() {
    Command w = waiting.poll();
    if (w instanceof Reconcile r) return onReconcile(r);
    if (w instanceof CheckNow c) return onCheckNow(c);
    if (!due) return this;
    due = false;
    return onTick();
  }
}

package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.recovery.Recovery;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.core.schedule.Decided;
import dev.gq.core.schedule.Decider;
import dev.gq.core.schedule.Reservations;
import dev.gq.core.schedule.Request;
import dev.gq.core.schedule.SchedulerState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.RecoveryFailed;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.javadsl.*;

/**
 * The queue and the GPU registry: the one writer of job state and reservations. Each command is one
 * call of {@link Decider#decide}, which returns the events of one write (the request's own, what
 * follows from them, and the reservations possible afterwards); they are persisted in one
 * transaction, and only then are the effects run: runners started or told to cancel, the history
 * fed, the GPU watcher or the reconciler asked, replies sent. The actor keeps only what cannot be
 * data: its runners and the requests waiting for start-up to end.
 */
public final class Scheduler extends EventSourcedBehaviorWithEnforcedReplies<Scheduler.Command, LedgerEvent, Ledger> {

  public sealed interface Command {}
  /** A user's request, answered with its result or refused with the one line to show. */
  public record Ask<R>(Request<R> request, ActorRef<StatusReply<R>> replyTo) implements Command {}
  public record GetView(ActorRef<SchedulerView> replyTo) implements Command {}
  /** The ledger alone, without the classification and plan a view computes (for the queue's and the groups' holds). */
  public record GetLedger(ActorRef<Ledger> replyTo) implements Command {}
  public record AwaitReady(ActorRef<Done> replyTo) implements Command {}
  /** The GPUs as classified from the latest reading, without the plan a view computes (for the usage record); empty before one. */
  public record GetGpus(ActorRef<List<dev.gq.core.gpu.GpuStatus>> replyTo) implements Command {}
  /** From the GPU watcher: a reading begun at {@code takenNanos} ({@code System.nanoTime()}). */
  public record GpusObserved(GpuObservation observation, String probe, boolean fake, long takenNanos) implements Command {
    public GpusObserved(GpuObservation observation, String probe, boolean fake) {
      this(observation, probe, fake, System.nanoTime());
    }
  }
  /** From a runner: see {@link Request.Launched}. */
  public record Launched(long jobId, ProcessIdentity identity) implements Command {}
  public record LaunchFailed(long jobId, String reason) implements Command {}
  /** From a runner: see {@link Request.LaunchDeferred}. */
  public record LaunchDeferred(long jobId, String reason) implements Command {}
  /** From a runner: see {@link Request.Ending}. */
  public record Ending(long jobId, boolean gone) implements Command {}
  /** From a runner: see {@link Request.Ended}. */
  public record Ended(long jobId, Integer exitCode, String reason, boolean timedOut, long endedNanos,
      GpuObservation after, long afterNanos, java.time.Instant endedAt) implements Command {
    /** {@code endedAt}: when the runner found the job ended (null: when the end is decided). */
    public Ended(long jobId, Integer exitCode, String reason, boolean timedOut, long endedNanos, GpuObservation after,
        long afterNanos) {
      this(jobId, exitCode, reason, timedOut, endedNanos, after, afterNanos, null);
    }

    public Ended(long jobId, Integer exitCode, String reason) {
      this(jobId, exitCode, reason, false, System.nanoTime(), null, 0);
    }
  }
  /** From the reconciler: see {@link Request.Reconciled}. */
  public record Reconciled(Map<Long, Recovery.Verdict> verdicts) implements Command {}
  /** A runner stopped: its job is no longer watched (after a failure, the reconciler checks it at once). */
  private record RunnerStopped(long jobId, ActorRef<JobRunner.Command> runner) implements Command {}
  /** From the reconciler's periodic pass: see {@link Request.Drifted}. */
  public record Drifted(Map<Long, JobState> seen, Map<Long, Recovery.Verdict> verdicts) implements Command {}

  private final ActorContext<Command> ctx;
  private final SchedulerDeps deps;
  private final Map<Long, ActorRef<JobRunner.Command>> runners = new HashMap<>();
  private final List<ActorRef<Done>> awaitingReady = new ArrayList<>();
  private final UnstoredWrites unstored = new UnstoredWrites();
  /** How many runners of each job stopped without reporting its end. */
  private final Map<Long, Integer> runnerFailures = new HashMap<>();
  /** A job's runners that fail more often than this are left to the periodic passes. */
  private static final int MAX_QUICK_CHECKS = 3;
  private SchedulerState state = SchedulerState.initial();

  private Scheduler(ActorContext<Command> ctx, SchedulerDeps deps) {
    // A write the journal refuses restarts the actor, which replays its events; its runners keep
    // watching their jobs meanwhile (their reports wait in the restart's stash). The failure is
    // logged in one line with its cause (writeFailed), not as a stack trace at every retry.
    super(PersistenceId.ofUniqueId("scheduler"),
        SupervisorStrategy.restartWithBackoff(java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(5), 0.2)
            .withStopChildren(false).withLoggingEnabled(false));
    this.ctx = ctx;
    this.deps = deps;
  }

  public static Behavior<Command> create(SchedulerDeps deps) {
    return Behaviors.setup(ctx -> new Scheduler(ctx, deps));
  }

  @Override
  public Ledger emptyState() {
    return Ledger.empty();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(deps.snapshotEvery(), 2);
  }

  @Override
  public SignalHandler<Ledger> signalHandler() {
    return newSignalHandlerBuilder().onSignal(RecoveryCompleted.instance(), this::onRecovered)
        .onSignal(PreRestart.instance(), l -> writeFailed())
        .onSignal(RecoveryFailed.class, (l, failed) -> deps.replayFailed(failed.getFailure())).build();
  }

  @Override
  public CommandHandlerWithReply<Command, LedgerEvent, Ledger> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Ask.class, this::onAsk)
        .onCommand(GetView.class, (l, c) -> Effect().reply(c.replyTo(), view(l)))
        .onCommand(GetLedger.class, (l, c) -> Effect().reply(c.replyTo(), l))
        .onCommand(GetGpus.class, (l, c) -> Effect().reply(c.replyTo(), classified(l)))
        .onCommand(AwaitReady.class, this::onAwaitReady)
        .onCommand(GpusObserved.class, (l, c) -> report(l, new Request.Observed(c.observation(), c.probe(), c.fake(), c.takenNanos())))
        .onCommand(Launched.class, (l, c) -> report(l, new Request.Launched(c.jobId(), c.identity()), c))
        .onCommand(LaunchFailed.class, (l, c) -> report(l, new Request.LaunchFailed(c.jobId(), c.reason()), c))
        .onCommand(LaunchDeferred.class, (l, c) -> {
          runners.remove(c.jobId());
          return report(l, new Request.LaunchDeferred(c.jobId(), c.reason()), c);
        })
        .onCommand(Ending.class, (l, c) -> report(l, new Request.Ending(c.jobId(), c.gone())))
        .onCommand(Ended.class, (l, c) -> {
          runners.remove(c.jobId());
          runnerFailures.remove(c.jobId());
          return report(l, new Request.Ended(c.jobId(), c.exitCode(), c.reason(), c.timedOut(), c.endedNanos(), c.after(),
              c.afterNanos(), c.endedAt()), c);
        })
        .onCommand(Reconciled.class, (l, c) -> report(l, new Request.Reconciled(c.verdicts(), deps.highestJobFileId())))
        .onCommand(RunnerStopped.class, this::onRunnerStopped)
        .onCommand(Drifted.class, (l, c) -> report(l, new Request.Drifted(c.seen(), c.verdicts(), watched())))
        .build();
  }

  /**
   * Replayed (at start, or after a write the journal refused): a failed write is settled, the
   * reconciler asked for the start-up pass unless start-up is over (the runners kept watching their
   * jobs through the restart, and the periodic pass sees the others), and the runners' reports that
   * were not stored are decided again. A journal that lost jobs that ran stops the start before
   * anything is written.
   */
  private void onRecovered(Ledger l) {
    writeFailed();
    if (!state.ready()) {
      String lost = deps.lostHistory(l);
      if (lost != null) {
        deps.refuseStart(lost);
        return;
      }
      deps.startReconciler(ctx, l, ctx.getSelf());
    }
    for (Command c : unstored.takeRetries()) ctx.getSelf().tell(c);
  }

  /**
   * The write under way failed: its request is refused with one line, the memory goes back to what it
   * was before its decision, and a job's end that waits to be stored gets the disk's reserve.
   */
  private void writeFailed() {
    if (!unstored.failed()) return;
    JournalWrites.failed(null);
    String problem = JournalWrites.problem();
    state = unstored.fail(JournalWrites.refusal(deps.journalPath(), deps.diskFullNote(), problem));
    ctx.getLog().error("cannot write the journal ({}): {}; the daemon retries", deps.journalPath(), problem);
    if (!unstored.endsWaiting().isEmpty()) deps.giveUpReserve();
  }

  /** The jobs the periodic pass leaves alone: those a runner watches, and those whose end a runner reported and waits to be stored. */
  private Set<Long> watched() {
    Set<Long> ids = new java.util.HashSet<>(runners.keySet());
    ids.addAll(unstored.endsWaiting());
    return Set.copyOf(ids);
  }

  /**
   * A runner that stops while it is still its job's (it reported no end, no deferral, no failed
   * launch) has failed: its job's real state is not known, so the reconciler checks it now, with the
   * periodic pass's rules, and a job whose processes still run gets a new runner from the verdict.
   * A job whose runners keep failing is left to the periodic passes, so a runner that fails at once
   * each time cannot make a loop.
   */
  private ReplyEffect<LedgerEvent, Ledger> onRunnerStopped(Ledger l, RunnerStopped c) {
    if (!runners.remove(c.jobId(), c.runner())) return Effect().noReply();
    Job j = l.live().get(c.jobId());
    if (j == null || !j.state().active() || j.spec().onCluster()) return Effect().noReply();
    int failures = runnerFailures.merge(j.id(), 1, Integer::sum);
    if (failures > MAX_QUICK_CHECKS) {
      ctx.getLog().warn("job {}: its runner stopped {} times without reporting the job's end; the periodic pass checks it",
          j.id(), failures);
      return Effect().noReply();
    }
    ctx.getLog().warn("job {}: its runner stopped without reporting the job's end; checking the job now", j.id());
    deps.checkNow(ctx, List.of(j), ctx.getSelf());
    return Effect().noReply();
  }

  /** Decides a user's request: refused, or its events persisted, then the reply. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private ReplyEffect<LedgerEvent, Ledger> onAsk(Ledger l, Ask c) {
    return asked(l, (Ask<?>) c);
  }

  private <R> ReplyEffect<LedgerEvent, Ledger> asked(Ledger l, Ask<R> c) {
    SchedulerState before = state;
    Decided<R> d = decide(l, c.request());
    if (d.refused()) return Effect().reply(c.replyTo(), StatusReply.error(d.refusal()));
    if (d.events().isEmpty()) return Effect().reply(c.replyTo(), StatusReply.success(d.answer()));
    unstored.writing(before, why -> c.replyTo().tell(StatusReply.error(why)), null);
    return Effect().persist(d.events()).thenRun(s -> stored(s, d))
        .thenReply(c.replyTo(), s -> StatusReply.success(d.answer()));
  }

  /** Decides a report from a runner, the watcher or the reconciler: nothing to answer. */
  private ReplyEffect<LedgerEvent, Ledger> report(Ledger l, Request<Void> r) {
    return report(l, r, null);
  }

  /** Decides a report; {@code fact}: a runner's report that is decided again if its write fails (null: none). */
  private ReplyEffect<LedgerEvent, Ledger> report(Ledger l, Request<Void> r, Command fact) {
    SchedulerState before = state;
    Decided<Void> d = decide(l, r);
    if (d.events().isEmpty()) {
      after(l, d);
      return Effect().noReply();
    }
    unstored.writing(before, null, fact);
    return Effect().persist(d.events()).thenRun(s -> stored(s, d)).thenNoReply();
  }

  private void stored(Ledger s, Decided<?> d) {
    unstored.stored();
    if (JournalWrites.problem() != null) {
      JournalWrites.stored();
      ctx.getLog().info("the journal takes writes again");
      deps.journalWritable();
    }
    after(s, d);
  }

  private <R> Decided<R> decide(Ledger l, Request<R> r) {
    Decided<R> d = Decider.decide(l, state, r, context());
    state = d.next();
    return d;
  }

  private ReplyEffect<LedgerEvent, Ledger> onAwaitReady(Ledger l, AwaitReady c) {
    if (state.ready()) return Effect().reply(c.replyTo(), Done.getInstance());
    awaitingReady.add(c.replyTo());
    return Effect().noReply();
  }

  /**
   * Effects once a decision's events are stored ({@code state}: the ledger after them): feed the read
   * side, start runners, signal cancellations, ask for a reading or a reconciliation, watch the jobs
   * a reconciliation found still running, and at the end of start-up let requests in.
   */
  private void after(Ledger state, Decided<?> d) {
    List<LedgerEvent> events = d.events();
    if (!events.isEmpty()) {
      deps.project(lastSequenceNumber(ctx) - events.size() + 1, events);
      Map<Long, JobSubmitted> inHand = null;
      for (LedgerEvent e : events) {
        switch (e) {
          case JobReserved r -> {
            if (inHand == null) inHand = Commands.inHand(events);
            startRunner(Commands.with(state.live().get(r.jobId()), inHand), false, totals(r));
          }
          case JobAdopted a -> startRunner(state.live().get(a.jobId()), true);
          case JobCancelRequested r -> {
            ActorRef<JobRunner.Command> runner = runners.get(r.jobId());
            if (runner != null) runner.tell(new JobRunner.Cancel());
          }
          case JobPreemptRequested r -> {
            ActorRef<JobRunner.Command> runner = runners.get(r.jobId());
            if (runner != null) runner.tell(new JobRunner.Preempt(r.preemption()));
          }
          default -> {}
        }
      }
      deps.logEvents(events);
    }
    if (d.readGpus()) deps.pollNow();
    if (d.reconcile() != null) deps.startReconciler(ctx, d.reconcile(), ctx.getSelf());
    for (var e : d.watch().entrySet()) {
      Job j = state.live().get(e.getKey());
      if (e.getValue().watch() && j != null && !runners.containsKey(j.id())) {
        startRunner(j, true);
        // a preemption under way when the daemon stopped is finished by the new runner
        var p = state.settings().preempting().get(j.id());
        if (j.state() == JobState.PREEMPTING && p != null) runners.get(j.id()).tell(new JobRunner.Preempt(p));
      }
    }
    if (!events.isEmpty() || d.readied()) deps.demand(state);
    if (d.readied()) {
      awaitingReady.forEach(r -> r.tell(Done.getInstance()));
      awaitingReady.clear();
    }
  }

  /** Starts {@code j}'s runner and watches it, so that a runner that stops leaves its job unwatched. */
  private void startRunner(Job j, boolean reattach) {
    startRunner(j, reattach, Map.of());
  }

  private void startRunner(Job j, boolean reattach, Map<String, Long> totalMiB) {
    ActorRef<JobRunner.Command> r = deps.startRunner(ctx, j, reattach, totalMiB);
    ctx.watchWith(r, new RunnerStopped(j.id(), r));
    runners.put(j.id(), r);
  }

  private List<dev.gq.core.gpu.GpuStatus> classified(Ledger l) {
    var gpus = state.gpus().classified(l);
    return gpus == null ? List.of() : gpus;
  }

  /** The total memory (MiB by UUID) of the GPUs {@code r} reserved, in the reading it was made on. */
  private Map<String, Long> totals(JobReserved r) {
    Map<String, Long> out = new java.util.HashMap<>();
    for (var d : state.gpus().lastKnown())
      if (d.error() == null && r.gpus().stream().anyMatch(s -> s.uuid().equals(d.uuid()))) out.put(d.uuid(), d.totalBytes() >> 20);
    return out;
  }

  private SchedulerView view(Ledger l) {
    var gpus = state.gpus().classified(l);
    var plan = Reservations.plan(l, state, context());
    var registry = state.gpus();
    return new SchedulerView(l, gpus == null ? List.of() : gpus, plan.waitReasons(), lastSequenceNumber(ctx), registry.probe(),
        registry.fake(), registry.gpuError(), registry.gpuCount(), state.ready(), figures(registry),
        state.idle().idle(deps.clock().instant(), deps.idleAfter()), deps.shareHeadroomMiB());
  }

  /** Each GPU's figures in the latest reading, by UUID; none when it failed or before the first. */
  private static Map<String, dev.gq.core.gpu.GpuFigures> figures(dev.gq.core.schedule.GpuRegistry registry) {
    if (registry.latest() == null || !registry.latest().reading().ok()) return Map.of();
    Map<String, dev.gq.core.gpu.GpuFigures> out = new java.util.HashMap<>();
    registry.latest().reading().devices().forEach(d -> out.put(d.uuid(), d.figures()));
    return out;
  }

  private DecisionContext context() {
    return new DecisionContext(deps.clock().instant(), System.nanoTime(), () -> UUID.randomUUID().toString(), deps::logPath,
        deps.failFast(), deps.gatherAfter(), deps.maxCpuJobs(), deps.shareHeadroomMiB(), deps.idleAfter(), deps.fair());
  }

  @Override
  public SnapshotAdapter<Ledger> snapshotAdapter() {
    return new SnapshotShape();
  }

  @Override
  public EventHandler<Ledger, LedgerEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(Ledger::apply);
  }
}

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
import dev.gq.core.schedule.DecidedBatch;
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
 * The queue and the GPU registry: the one writer of job state and reservations. Requests and reports
 * wait while a journal write is under way; then everything that came is decided in one step
 * ({@link DecidedBatch}, in arrival order, as if one by one) and written in one transaction (a lone
 * request is written at once). Only once it is stored do the effects run: runners started or told to
 * cancel, the history fed, the GPU watcher or the reconciler asked, the callers answered; the
 * Scheduler's memory moves then too, so a write the journal refuses leaves nothing behind. The actor
 * keeps only what cannot be data: its runners and the requests waiting for start-up to end.
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
  /**
   * A fact from a runner, the GPU watcher, the reconciler or the cluster bridge: decided with the
   * requests, answered to nobody. Runners hold {@link #facts}, which wraps each in one.
   */
  public record Report(Request.Fact fact) implements Command {}
  /** A runner stopped: its job is no longer watched (after a failure, the reconciler checks it at once). */
  private record RunnerStopped(long jobId, ActorRef<JobRunner.Command> runner) implements Command {}

  /** Decide what came during a write: sent to itself when the write is stored. */
  private enum Flush implements Command { INSTANCE }

  /** A command waiting for the next write, and the request it is decided as (made when it came). */
  private record Pending(Command command, Request<?> request) {}

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
  /** What came since the last write began, in arrival order, with the request each is decided as. */
  private final List<Pending> pending = new ArrayList<>();
  /** Whether a Flush is on its way: what comes until then waits in {@link #pending}. */
  private boolean flushing;

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

  /** Where a runner of this Scheduler's tells its facts: each comes as a {@link Report}. */
  public static ActorRef<Request.Fact> facts(ActorContext<Command> ctx) {
    return ctx.messageAdapter(Request.Fact.class, Report::new);
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
        .onCommand(Ask.class, (l, c) -> queue(l, c, c.request()))
        .onCommand(GetView.class, (l, c) -> Effect().reply(c.replyTo(), view(l)))
        .onCommand(GetLedger.class, (l, c) -> Effect().reply(c.replyTo(), l))
        .onCommand(GetGpus.class, (l, c) -> Effect().reply(c.replyTo(), classified(l)))
        .onCommand(AwaitReady.class, this::onAwaitReady)
        .onCommand(Report.class, (l, c) -> queue(l, c, received(c.fact())))
        .onCommand(RunnerStopped.class, this::onRunnerStopped)
        .onCommand(Flush.class, (l, c) -> flush(l))
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
    // what waited through the restart is handed over only when a message comes: one comes now
    ctx.getSelf().tell(Flush.INSTANCE);
  }

  /**
   * The write under way failed: each request it held is refused with one line, each runner's report
   * it held waits to be decided again, and a job's end that waits to be stored gets the disk's reserve.
   * The Scheduler's memory never moved: it moves only once a write is stored.
   */
  private void writeFailed() {
    if (!unstored.failed()) return;
    JournalWrites.failed(null);
    String problem = JournalWrites.problem();
    unstored.fail(JournalWrites.refusal(deps.journalPath(), deps.diskFullNote(), problem));
    ctx.getLog().error("cannot write the journal ({}): {}; the daemon retries", deps.journalPath(), problem);
    if (!unstored.endsWaiting().isEmpty()) deps.giveUpReserve();
  }

  /** The jobs the periodic pass leaves alone: those a runner watches, and those whose end a runner reported and waits to be stored. */
  private Set<Long> watched() {
    Set<Long> ids = new java.util.HashSet<>(runners.keySet());
    ids.addAll(unstored.endsWaiting());
    for (Pending p : pending) if (p.request() instanceof Request.Ended e) ids.add(e.jobId());
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

  /**
   * A fact as it is decided, with what the Scheduler adds when it comes: a runner that reports its job's
   * end or a deferred launch is its job's no more; the start-up verdicts skip ids past the files on
   * disk; a periodic pass leaves alone the jobs the runners watch.
   */
  private Request<?> received(Request.Fact f) {
    return switch (f) {
      case Request.LaunchDeferred d -> {
        runners.remove(d.jobId());
        yield d;
      }
      case Request.Ended e -> {
        runners.remove(e.jobId());
        runnerFailures.remove(e.jobId());
        yield e;
      }
      case Request.Reconciled r -> new Request.Reconciled(r.verdicts(), deps.highestJobFileId());
      case Request.Drifted d -> new Request.Drifted(d.seen(), d.verdicts(), watched());
      default -> f;
    };
  }

  /**
   * A request or a report is decided at once when the journal is idle. One that comes while a write is
   * under way waits (the actor receives nothing meanwhile) and, once the write is stored, is decided with
   * everything else that came: the Flush the write's end sends itself comes after all of them.
   */
  private ReplyEffect<LedgerEvent, Ledger> queue(Ledger l, Command c, Request<?> r) {
    pending.add(new Pending(c, r));
    return flushing ? Effect().noReply() : decide(l);
  }

  private ReplyEffect<LedgerEvent, Ledger> flush(Ledger l) {
    flushing = false;
    return decide(l);
  }

  /**
   * Decides everything that waits in one step ({@link DecidedBatch}: in arrival order, as if one by one)
   * and writes it in one transaction. Only once it is stored do the Scheduler's memory move, the effects
   * run and the callers hear their answers; a batch with nothing to write is answered at once.
   */
  private ReplyEffect<LedgerEvent, Ledger> decide(Ledger l) {
    if (pending.isEmpty()) return Effect().noReply();
    List<Pending> batch = List.copyOf(pending);
    pending.clear();
    DecidedBatch b = DecidedBatch.decide(l, state, batch.stream().<Request<?>>map(Pending::request).toList(), context());
    if (b.nothingToWrite()) {
      state = b.next();
      applied(batch, b);
      return Effect().noReply();
    }
    unstored.writing(batch.stream().map(Pending::command).toList());
    return Effect().persist(b.events()).thenRun(s -> stored(batch, b)).thenNoReply();
  }

  private void stored(List<Pending> batch, DecidedBatch b) {
    unstored.stored();
    state = b.next();
    if (JournalWrites.problem() != null) {
      JournalWrites.stored();
      ctx.getLog().info("the journal takes writes again");
      deps.journalWritable();
    }
    applied(batch, b);
    // what came during the write is decided next, together
    flushing = true;
    ctx.getSelf().tell(Flush.INSTANCE);
  }

  private ReplyEffect<LedgerEvent, Ledger> onAwaitReady(Ledger l, AwaitReady c) {
    if (state.ready()) return Effect().reply(c.replyTo(), Done.getInstance());
    awaitingReady.add(c.replyTo());
    return Effect().noReply();
  }

  /**
   * Effects once a batch's events are stored: feed the read side, then for each decision in order
   * (on the ledger as its own events left it) start runners, signal cancellations, reconcile, watch the
   * jobs a reconciliation found still running, and answer its caller; then ask for a reading, and at
   * the end of start-up let requests in.
   */
  private void applied(List<Pending> batch, DecidedBatch b) {
    List<LedgerEvent> events = b.events();
    if (!events.isEmpty()) deps.project(lastSequenceNumber(ctx) - events.size() + 1, events);
    Map<Long, JobSubmitted> inHand = null;
    boolean read = false;
    boolean readied = false;
    for (int i = 0; i < batch.size(); i++) {
      Decided<?> d = b.decided().get(i);
      Ledger after = b.after().get(i);
      for (LedgerEvent e : d.events()) {
        switch (e) {
          case JobReserved r -> {
            if (inHand == null) inHand = Commands.inHand(events);
            startRunner(Commands.with(after.live().get(r.jobId()), inHand), false, totals(r));
          }
          case JobAdopted a -> startRunner(after.live().get(a.jobId()), true);
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
      if (d.reconcile() != null) deps.startReconciler(ctx, d.reconcile(), ctx.getSelf());
      watch(after, d);
      read |= d.readGpus();
      readied |= d.readied();
      answer(batch.get(i).command(), d);
    }
    if (!events.isEmpty()) deps.logEvents(events);
    if (read) deps.pollNow();
    if (!events.isEmpty() || readied) deps.demand(b.after().get(b.after().size() - 1));
    if (readied) {
      awaitingReady.forEach(r -> r.tell(Done.getInstance()));
      awaitingReady.clear();
    }
  }

  /** Gives a runner to each job a reconciliation found still running that has none. */
  private void watch(Ledger after, Decided<?> d) {
    for (var e : d.watch().entrySet()) {
      Job j = after.live().get(e.getKey());
      if (e.getValue().watch() && j != null && !runners.containsKey(j.id())) {
        startRunner(j, true);
        // a preemption under way when the daemon stopped is finished by the new runner
        var p = after.settings().preempting().get(j.id());
        if (j.state() == JobState.PREEMPTING && p != null) runners.get(j.id()).tell(new JobRunner.Preempt(p));
      }
    }
  }

  /** A user's request hears its answer or its refusal; a report has no one to answer. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void answer(Command c, Decided<?> d) {
    if (!(c instanceof Ask ask)) return;
    ActorRef replyTo = ask.replyTo();
    replyTo.tell(d.refused() ? StatusReply.error(d.refusal()) : StatusReply.success(d.answer()));
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

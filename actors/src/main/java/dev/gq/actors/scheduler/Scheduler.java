package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.Retries;
import dev.gq.core.ledger.Submissions;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.recovery.Drift;
import dev.gq.core.recovery.JobFileIds;
import dev.gq.core.recovery.Recovery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
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
 * The GPU registry and the queue: the one writer of job state and reservations. Every decision is
 * a pure call into core returning events, followed in the same write by what they entail
 * (automatic retries, fail-fast holds, dependents cancelled, reservations); the events are
 * persisted (one transaction per command), and only then are runners started, the read side fed
 * and replies sent. Facts about ended jobs come with the requests that name them, looked up in the
 * read side by the caller. Nothing is placed before start-up reconciliation has finished.
 */
public final class Scheduler extends EventSourcedBehaviorWithEnforcedReplies<Scheduler.Command, LedgerEvent, Ledger> {

  public sealed interface Command {}
  /** Submits one job; {@code facts} describe the ended jobs its spec's {@code after} names. */
  public record Submit(JobSpec spec, Map<Long, LineageFact> facts, ActorRef<StatusReply<Ledger.SubmitOutcome>> replyTo)
      implements Command {
    public Submit(JobSpec spec, ActorRef<StatusReply<Ledger.SubmitOutcome>> replyTo) {
      this(spec, Map.of(), replyTo);
    }
  }
  /** Submits many jobs, all or nothing; {@code lines} numbers them for messages. */
  public record SubmitBatch(List<JobSpec> specs, List<Integer> lines, Map<Long, LineageFact> facts,
      ActorRef<StatusReply<List<Ledger.SubmitOutcome>>> replyTo) implements Command {}
  /**
   * Retries ended jobs read from the history ({@code states} empty: every retryable state);
   * {@code group}, when not null, is the group the retry names, whose fail-fast hold it releases.
   */
  public record Retry(List<Job> originals, Set<JobState> states, String group, Map<Long, LineageFact> facts,
      ActorRef<StatusReply<Retries.Outcome>> replyTo) implements Command {
    public Retry(List<Job> originals, Set<JobState> states, Map<Long, LineageFact> facts,
        ActorRef<StatusReply<Retries.Outcome>> replyTo) {
      this(originals, states, null, facts, replyTo);
    }
  }
  /** These ended jobs were deleted from the history: free the keys they held. */
  public record Removed(List<Long> ids, ActorRef<StatusReply<Done>> replyTo) implements Command {}
  public record Cancel(List<Long> ids, ActorRef<StatusReply<List<CancelResult>>> replyTo) implements Command {}
  public record GetView(ActorRef<SchedulerView> replyTo) implements Command {}
  /** The ledger alone, without the classification and plan a view computes (for the paused queue and holds). */
  public record GetLedger(ActorRef<Ledger> replyTo) implements Command {}
  public record AwaitReady(ActorRef<Done> replyTo) implements Command {}
  /** A reading begun at {@code takenNanos} ({@code System.nanoTime()}). */
  public record GpusObserved(GpuObservation observation, String probe, boolean fake, long takenNanos) implements Command {
    public GpusObserved(GpuObservation observation, String probe, boolean fake) {
      this(observation, probe, fake, System.nanoTime());
    }
  }
  public record Launched(long jobId, ProcessIdentity identity) implements Command {}
  public record LaunchFailed(long jobId, String reason) implements Command {}
  /** From a runner: another gq took a GPU's lease between the reservation and the launch. */
  public record LaunchDeferred(long jobId, String reason) implements Command {}
  /**
   * From a runner: the job's shim has exited ({@code gone}), so its end is on its way; or, after
   * all, a process of the job is left ({@code !gone}). Until its end is recorded, the job may be
   * one more failure of its group, which then starts no further job (fail-fast).
   */
  public record Ending(long jobId, boolean gone) implements Command {}
  /**
   * From a runner: every process of the job is gone (seen so at {@code endedNanos}); {@code exitCode}
   * null when no exit record exists; {@code timedOut} when the runner stopped it at its time limit;
   * {@code after} a GPU reading begun at {@code afterNanos}, after that (null when there is none).
   */
  public record Ended(long jobId, Integer exitCode, String reason, boolean timedOut, long endedNanos,
      GpuObservation after, long afterNanos) implements Command {
    public Ended(long jobId, Integer exitCode, String reason) {
      this(jobId, exitCode, reason, false, System.nanoTime(), null, 0);
    }
  }
  public record Reconciled(Map<Long, Recovery.Verdict> verdicts) implements Command {}
  /** From the reconciler's periodic pass: its verdicts, and the state it saw each job in (see {@link Drift}). */
  public record Drifted(Map<Long, JobState> seen, Map<Long, Recovery.Verdict> verdicts) implements Command {}
  /** Pauses the queue ({@code group} null) or holds one group; replies with the line to show. */
  public record Pause(String group, ActorRef<StatusReply<String>> replyTo) implements Command {}
  public record Resume(String group, ActorRef<StatusReply<String>> replyTo) implements Command {}
  /** Caps how many jobs of a group are active at once ({@code maxRunning} null: no cap); replies with the line to show. */
  public record LimitGroup(String group, Integer maxRunning, ActorRef<StatusReply<String>> replyTo) implements Command {}
  /** Changes a waiting job's GPUs, priority or time limit; replies with the line to show. */
  public record ChangeJob(long jobId, dev.gq.core.ledger.JobChanges.Change change, ActorRef<StatusReply<String>> replyTo)
      implements Command {}
  /** Moves a waiting job to the front of the queue; replies with the line to show. */
  public record ToFront(long jobId, ActorRef<StatusReply<String>> replyTo) implements Command {}
  /** Holds ({@code held}) or releases waiting jobs; replies with the line to show. */
  public record HoldJobs(List<Long> jobIds, boolean held, ActorRef<StatusReply<String>> replyTo) implements Command {}
  /** Drains a GPU of new jobs, or gives it back ({@code reason} null); replies with the line to show. */
  public record DrainGpu(String uuid, int index, String reason, ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** One cancel answer per id. */
  public record CancelResult(long id, String kind, String message) {}

  private final ActorContext<Command> ctx;
  private final SchedulerDeps deps;
  private final Clock clock;
  private final SchedulerRuntime rt = new SchedulerRuntime();
  private final Settling settling;

  private Scheduler(ActorContext<Command> ctx, SchedulerDeps deps) {
    super(PersistenceId.ofUniqueId("scheduler"),
        SupervisorStrategy.restartWithBackoff(java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(5), 0.2));
    this.ctx = ctx;
    this.deps = deps;
    this.clock = deps.clock();
    this.settling = new Settling(deps, rt);
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
    return newSignalHandlerBuilder().onSignal(RecoveryCompleted.instance(), this::recovered)
        .onSignal(RecoveryFailed.class, (l, failed) -> deps.replayFailed(failed.getFailure())).build();
  }

  private void recovered(Ledger ledger) {
    deps.startReconciler(ctx, ledger, ctx.getSelf());
  }

  @Override
  public CommandHandlerWithReply<Command, LedgerEvent, Ledger> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Submit.class, (l, c) -> decided(l, Submissions.one(l, c.spec(), settling.intake(c.facts())), c.replyTo()))
        .onCommand(SubmitBatch.class, (l, c) -> decided(l, Submissions.batch(l, c.specs(), c.lines(), settling.intake(c.facts())), c.replyTo()))
        .onCommand(Retry.class, (l, c) -> decided(l, Retries.decide(l, c.originals(), c.states(), c.group(), settling.intake(c.facts())), c.replyTo()))
        .onCommand(Removed.class, (l, c) -> decided(l, Endings.removed(l, c.ids(), now()), c.replyTo()))
        .onCommand(Cancel.class, this::onCancel)
        .onCommand(GetView.class, (l, c) -> Effect().reply(c.replyTo(), view(l)))
        .onCommand(GetLedger.class, (l, c) -> Effect().reply(c.replyTo(), l))
        .onCommand(AwaitReady.class, this::onAwaitReady)
        .onCommand(GpusObserved.class, this::onObserved)
        .onCommand(Launched.class, this::onLaunched)
        .onCommand(LaunchFailed.class, (l, c) -> live(l, c.jobId()) ? decide(l, List.of(new JobLaunchFailed(c.jobId(), c.reason(), now()))) : Effect().noReply())
        .onCommand(LaunchDeferred.class, this::onDeferred)
        .onCommand(Ended.class, this::onEnded)
        .onCommand(Ending.class, this::onEnding)
        .onCommand(Reconciled.class, this::onReconciled)
        .onCommand(Drifted.class, this::onDrifted)
        .onCommand(Pause.class, (l, c) -> decided(l, QueueControl.pause(l, c.group(), now()), c.replyTo()))
        .onCommand(Resume.class, (l, c) -> decided(l, QueueControl.resume(l, c.group(), now()), c.replyTo()))
        .onCommand(LimitGroup.class, (l, c) -> decided(l, QueueControl.limit(l, c.group(), c.maxRunning(), now()), c.replyTo()))
        .onCommand(ChangeJob.class, (l, c) -> decided(l, dev.gq.core.ledger.JobChanges.change(l, c.jobId(), c.change(),
            rt.gpuCount(), now()), c.replyTo()))
        .onCommand(ToFront.class, (l, c) -> decided(l, dev.gq.core.ledger.JobChanges.toFront(l, c.jobId(), now()), c.replyTo()))
        .onCommand(HoldJobs.class, (l, c) -> decided(l, dev.gq.core.ledger.JobChanges.hold(l, c.jobIds(), c.held(), now()),
            c.replyTo()))
        .onCommand(DrainGpu.class, (l, c) -> decided(l, QueueControl.drain(l, c.uuid(), c.index(), c.reason(), now()), c.replyTo()))
        .build();
  }

  /** Replies with a refusal, or persists the decision's events and what follows from them, then replies. */
  private <R> ReplyEffect<LedgerEvent, Ledger> decided(Ledger l, Decision<R> d, ActorRef<StatusReply<R>> replyTo) {
    if (d.refused()) return Effect().reply(replyTo, StatusReply.error(d.refusal()));
    if (d.events().isEmpty()) return Effect().reply(replyTo, StatusReply.success(d.result()));
    List<LedgerEvent> all = settling.settle(l, d.events(), false, true);
    return Effect().persist(all).thenRun(s -> after(s, all)).thenReply(replyTo, s -> StatusReply.success(d.result()));
  }

  private ReplyEffect<LedgerEvent, Ledger> onCancel(Ledger l, Cancel c) {
    List<CancelResult> results = CancelResults.of(l, c.ids());
    return decided(l, Decision.accept(l.cancel(c.ids(), now()), results), c.replyTo());
  }

  private ReplyEffect<LedgerEvent, Ledger> onAwaitReady(Ledger l, AwaitReady c) {
    if (rt.ready) return Effect().reply(c.replyTo(), Done.getInstance());
    rt.awaitingReady.add(c.replyTo());
    return Effect().noReply();
  }

  private ReplyEffect<LedgerEvent, Ledger> onObserved(Ledger l, GpusObserved c) {
    if (!rt.observe(c.observation(), c.probe(), c.fake(), c.takenNanos())) return Effect().noReply();
    List<Job> back = Orphans.returned(l, c.observation().reading());
    if (rt.ready && !back.isEmpty() && !rt.reconciling) {
      rt.reconciling = true;
      deps.startReconciler(ctx, Orphans.only(l, back), ctx.getSelf());
    }
    return decide(l, List.of());
  }

  private ReplyEffect<LedgerEvent, Ledger> onLaunched(Ledger l, Launched c) {
    if (!live(l, c.jobId())) return Effect().noReply();
    return decide(l, List.of(new JobLaunched(c.jobId(), c.identity(), now())));
  }

  /** Back to the queue; its GPUs wait for a reading taken since, which shows the other gq's lease. */
  private ReplyEffect<LedgerEvent, Ledger> onDeferred(Ledger l, LaunchDeferred c) {
    rt.runners.remove(c.jobId());
    Job j = l.live().get(c.jobId());
    if (j == null) return Effect().noReply();
    if (j.state() != JobState.STARTING) return decide(l, List.of(new JobLaunchFailed(c.jobId(), c.reason(), now())));
    return decide(l, List.of(new JobRequeued(c.jobId(), c.reason(), now())));
  }

  private ReplyEffect<LedgerEvent, Ledger> onEnding(Ledger l, Ending c) {
    if (c.gone() && live(l, c.jobId())) rt.ending.add(c.jobId());
    // A job no longer ending may free its group's budget: place again.
    else if (!c.gone() && rt.ending.remove(c.jobId())) return decide(l, List.of());
    return Effect().noReply();
  }

  private ReplyEffect<LedgerEvent, Ledger> onEnded(Ledger l, Ended c) {
    rt.runners.remove(c.jobId());
    rt.ending.remove(c.jobId());
    Job j = l.live().get(c.jobId());
    if (j == null) return Effect().noReply();
    LedgerEvent e = Endings.of(j, c, now());
    // The freed GPUs go to the next jobs in this same write, but only on the reading the runner took
    // after every process of the job was gone: an older one may miss a process that opened its
    // context since. Without it, or with a GPU that reading shows in use, the GPU is read again at
    // once (and placed when that reading comes); otherwise no reading competes with the launch.
    if (c.after() != null) rt.observe(c.after(), rt.probe, rt.fake, c.afterNanos());
    List<LedgerEvent> all = settling.settle(l, List.of(e), false, true, c.endedNanos());
    return Effect().persist(all).thenRun(s -> {
      boolean asked = rt.pollWanted; // after() asks for a reading for the GPUs still waiting
      after(s, all);
      if (!asked && rt.heldBack(s, j)) deps.pollNow();
    }).thenNoReply();
  }

  private ReplyEffect<LedgerEvent, Ledger> onReconciled(Ledger l, Reconciled c) {
    List<LedgerEvent> events = new ArrayList<>();
    // First, so that a retry decided in this write gets an id past the files too.
    if (!rt.ready) JobFileIds.skipPast(l, deps.highestJobFileId(), now()).ifPresent(events::add);
    c.verdicts().values().forEach(v -> events.addAll(v.events()));
    rt.ready = true;
    rt.reconciling = false;
    List<LedgerEvent> all = settling.settle(l, events, true, true);
    if (all.isEmpty()) {
      ready(l, c);
      return Effect().noReply();
    }
    return Effect().persist(all).thenRun(s -> {
      after(s, all);
      ready(s, c);
    }).thenNoReply();
  }

  /** Acts on what the runners cannot see; before start-up is over (a restart) the runners are not known yet. */
  private ReplyEffect<LedgerEvent, Ledger> onDrifted(Ledger l, Drifted c) {
    Reconciled mine = new Reconciled(Drift.actionable(l, c.seen(), c.verdicts(), rt.runners.keySet()));
    if (!rt.ready || mine.verdicts().isEmpty()) return Effect().noReply();
    List<LedgerEvent> all = settling.settle(l, mine.verdicts().values().stream().flatMap(v -> v.events().stream()).toList(), true, true);
    if (all.isEmpty()) ready(l, mine);
    return all.isEmpty() ? Effect().noReply() : Effect().persist(all).thenRun(s -> { after(s, all); ready(s, mine); }).thenNoReply();
  }

  /** Start-up is over: watch the jobs that still run, and let requests in. */
  private void ready(Ledger state, Reconciled c) {
    for (var e : c.verdicts().entrySet()) {
      Job j = state.live().get(e.getKey());
      if (e.getValue().watch() && j != null && !rt.runners.containsKey(j.id()))
        rt.runners.put(j.id(), deps.startRunner(ctx, j, true));
    }
    rt.awaitingReady.forEach(r -> r.tell(Done.getInstance()));
    rt.awaitingReady.clear();
  }

  /** Persists {@code events} plus whatever follows and can be placed afterwards, or does nothing. */
  private ReplyEffect<LedgerEvent, Ledger> decide(Ledger l, List<LedgerEvent> events) {
    List<LedgerEvent> all = settling.settle(l, events, false, true);
    if (all.isEmpty()) return Effect().noReply();
    return Effect().persist(all).thenRun(s -> after(s, all)).thenNoReply();
  }

  /**
   * Effects after events are stored: feed the read side, ask for a reading when a freed GPU waits
   * for one, start runners, signal cancellations.
   */
  private void after(Ledger state, List<LedgerEvent> events) {
    if (!rt.ending.isEmpty()) rt.ending.removeIf(id -> !state.live().containsKey(id));
    long last = lastSequenceNumber(ctx);
    deps.project(last - events.size() + 1, events);
    if (rt.pollWanted) {
      rt.pollWanted = false;
      deps.pollNow();
    }
    Map<Long, JobSubmitted> inHand = null;
    for (LedgerEvent e : events) {
      switch (e) {
        case JobReserved r -> {
          if (inHand == null) inHand = Commands.inHand(events);
          rt.runners.put(r.jobId(), deps.startRunner(ctx, Commands.with(state.live().get(r.jobId()), inHand), false));
        }
        case JobCancelRequested r -> {
          ActorRef<JobRunner.Command> runner = rt.runners.get(r.jobId());
          if (runner != null) runner.tell(new JobRunner.Cancel());
        }
        default -> {}
      }
    }
    deps.logEvents(events);
  }

  private SchedulerView view(Ledger l) {
    var gpus = rt.classified(l);
    var plan = Placing.plan(l, rt, now(), deps);
    return new SchedulerView(l, gpus == null ? List.of() : gpus, plan.waitReasons(),
        lastSequenceNumber(ctx), rt.probe, rt.fake, rt.gpuError(), rt.gpuCount(), rt.ready);
  }

  private static boolean live(Ledger l, long id) {
    return l.live().containsKey(id);
  }

  private java.time.Instant now() {
    return clock.instant();
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

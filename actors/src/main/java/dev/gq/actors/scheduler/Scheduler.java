package dev.gq.actors.scheduler;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.schedule.DecidedBatch;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.core.schedule.Request;
import dev.gq.core.schedule.SchedulerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
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
 * keeps only what cannot be data: its runners and the requests waiting for start-up to end. Its
 * messages are {@link SchedulerProtocol}'s, which it implements: they read as {@code Scheduler.Command},
 * {@code Scheduler.Ask} and so on.
 */
public final class Scheduler extends EventSourcedBehaviorWithEnforcedReplies<SchedulerProtocol.Command, LedgerEvent, Ledger>
    implements SchedulerProtocol {

  /** A command waiting for the next write, and the request it is decided as (made when it came). */
  private record Pending(Command command, Request<?> request) {}

  private final ActorContext<Command> ctx;
  private final SchedulerSettings settings;
  private final SchedulerEffects effects;
  private final Runners runners;
  private final StoredEffects stored;
  private final List<ActorRef<Done>> awaitingReady = new ArrayList<>();
  private final UnstoredWrites unstored = new UnstoredWrites();
  private SchedulerState state = SchedulerState.initial();
  /** What came since the last write began, in arrival order, with the request each is decided as. */
  private final List<Pending> pending = new ArrayList<>();
  /** Whether a Flush is on its way: what comes until then waits in {@link #pending}. */
  private boolean flushing;

  private Scheduler(ActorContext<Command> ctx, SchedulerSettings settings, SchedulerEffects effects) {
    // A write the journal refuses restarts the actor, which replays its events; its runners keep
    // watching their jobs meanwhile (their reports wait in the restart's stash). The failure is
    // logged in one line with its cause (writeFailed), not as a stack trace at every retry.
    super(PersistenceId.ofUniqueId("scheduler"),
        SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2)
            .withStopChildren(false).withLoggingEnabled(false));
    this.ctx = ctx;
    this.settings = settings;
    this.effects = effects;
    this.runners = new Runners(ctx, effects);
    this.stored = new StoredEffects(ctx, effects, runners);
  }

  /** Where a runner of this Scheduler's tells its facts: each comes as a {@link Report}. */
  public static ActorRef<Request.Fact> facts(ActorContext<Command> ctx) {
    return ctx.messageAdapter(Request.Fact.class, Report::new);
  }

  public static Behavior<Command> create(SchedulerSettings settings, SchedulerEffects effects) {
    return Behaviors.setup(ctx -> new Scheduler(ctx, settings, effects));
  }

  @Override
  public Ledger emptyState() {
    return Ledger.empty();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(settings.snapshotEvery(), 2);
  }

  @Override
  public SignalHandler<Ledger> signalHandler() {
    return newSignalHandlerBuilder().onSignal(RecoveryCompleted.instance(), this::onRecovered)
        .onSignal(PreRestart.instance(), l -> writeFailed())
        .onSignal(RecoveryFailed.class, (l, failed) -> effects.replayFailed(failed.getFailure())).build();
  }

  @Override
  public CommandHandlerWithReply<Command, LedgerEvent, Ledger> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Ask.class, (l, c) -> queue(l, c, c.request()))
        .onCommand(GetView.class, (l, c) -> Effect().reply(c.replyTo(), Views.view(l, state, context(), lastSequenceNumber(ctx), settings)))
        .onCommand(GetLedger.class, (l, c) -> Effect().reply(c.replyTo(), l))
        .onCommand(GetSeqNr.class, (l, c) -> Effect().reply(c.replyTo(), lastSequenceNumber(ctx)))
        .onCommand(GetGpus.class, (l, c) -> Effect().reply(c.replyTo(), Views.classified(l, state)))
        .onCommand(AwaitReady.class, this::onAwaitReady)
        .onCommand(Report.class, (l, c) -> queue(l, c, received(c.fact())))
        .onCommand(RunnerStopped.class, (l, c) -> {
          runners.stopped(l, c.jobId(), c.runner());
          return Effect().noReply();
        })
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
      String lost = effects.lostHistory(l);
      if (lost != null) {
        effects.refuseStart(lost);
        return;
      }
      effects.startReconciler(ctx, l, ctx.getSelf());
    }
    for (Command c : unstored.takeRetries()) ctx.getSelf().tell(c);
    // what waited through the restart is handed over only when a message comes: one comes now
    ctx.getSelf().tell(Flush.INSTANCE);
  }

  /** The write under way failed (see {@link UnstoredWrites#fail}); the Scheduler's memory never moved. */
  private void writeFailed() {
    if (unstored.failed()) unstored.fail(settings, effects, ctx.getLog());
  }

  /** The jobs the periodic pass leaves alone: those a runner watches, and those whose end a runner reported and waits to be stored. */
  private Set<Long> watched() {
    Set<Long> ids = new HashSet<>(runners.watched());
    ids.addAll(unstored.endsWaiting());
    for (Pending p : pending) if (p.request() instanceof Request.Ended e) ids.add(e.jobId());
    return Set.copyOf(ids);
  }

  /**
   * A fact as it is decided, with what the Scheduler adds when it comes: a runner that reports its job's
   * end or a deferred launch is its job's no more; the start-up pass skips ids past the files on
   * disk; a periodic pass leaves alone the jobs the runners watch.
   */
  private Request<?> received(Request.Fact f) {
    return switch (f) {
      case Request.LaunchDeferred d -> {
        runners.deferred(d.jobId());
        yield d;
      }
      case Request.Ended e -> {
        runners.ended(e.jobId());
        yield e;
      }
      case Request.Reconciled r -> new Request.Reconciled(r.facts(), settings.highestJobFileId());
      case Request.Drifted d -> new Request.Drifted(d.seen(), d.facts(), watched());
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
    unstored.stored(effects, ctx.getLog());
    state = b.next();
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

  /** The effects of a stored (or empty) batch; at the end of start-up, requests are let in. */
  private void applied(List<Pending> batch, DecidedBatch b) {
    long seq = b.nothingToWrite() ? 0 : lastSequenceNumber(ctx);
    if (!stored.run(batch.stream().map(Pending::command).toList(), b, seq, state)) return;
    awaitingReady.forEach(r -> r.tell(Done.getInstance()));
    awaitingReady.clear();
  }

  private DecisionContext context() {
    return Views.context(settings, effects);
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

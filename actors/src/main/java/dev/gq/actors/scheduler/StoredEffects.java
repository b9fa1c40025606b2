package dev.gq.actors.scheduler;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.schedule.Decided;
import dev.gq.core.schedule.DecidedBatch;
import dev.gq.core.schedule.SchedulerState;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.pattern.StatusReply;

/**
 * What follows once a batch's events are stored, and only then: the read side fed, then for each
 * decision in order (on the ledger as its own events left it) runners started or told to cancel, a
 * reconciliation asked for, the jobs a reconciliation found still running watched, and its caller
 * answered; then the GPUs read again when a decision asked for it.
 */
final class StoredEffects {
  private final ActorContext<SchedulerProtocol.Command> ctx;
  private final SchedulerEffects effects;
  private final Runners runners;

  StoredEffects(ActorContext<SchedulerProtocol.Command> ctx, SchedulerEffects effects, Runners runners) {
    this.ctx = ctx;
    this.effects = effects;
    this.runners = runners;
  }

  /**
   * Runs the effects of {@code b}, the decisions of {@code commands}; {@code lastSeq}: the sequence number
   * of its last event; {@code state}: the Scheduler's memory once it is stored. Returns whether start-up
   * ended with it.
   */
  boolean run(List<SchedulerProtocol.Command> commands, DecidedBatch b, long lastSeq, SchedulerState state) {
    List<LedgerEvent> events = b.events();
    if (!events.isEmpty()) effects.project(lastSeq - events.size() + 1, events);
    Map<Long, JobSubmitted> inHand = CommandsInHand.inHand(events);
    boolean read = false;
    boolean readied = b.decided().stream().anyMatch(Decided::readied);
    // the counts go to the demand file before any answer: a submit that returns can wait for them
    if (!events.isEmpty() || readied) effects.demand(b.after().get(b.after().size() - 1));
    for (int i = 0; i < commands.size(); i++) {
      Decided<?> d = b.decided().get(i);
      Ledger after = b.after().get(i);
      runners.follow(after, d.events(), inHand, r -> Views.totals(state, r));
      if (d.reconcile() != null) effects.startReconciler(ctx, d.reconcile(), ctx.getSelf());
      runners.watch(after, d);
      read |= d.readGpus();
      if (commands.get(i) instanceof SchedulerProtocol.Ask<?> ask) answer(ask, d);
    }
    if (!events.isEmpty()) effects.logEvents(events);
    if (read) effects.pollNow();
    return readied;
  }

  /** A user's request hears its answer or its refusal. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void answer(SchedulerProtocol.Ask<?> ask, Decided<?> d) {
    ActorRef replyTo = ask.replyTo();
    replyTo.tell(d.refused() ? StatusReply.error(d.refusal()) : StatusReply.success(d.answer()));
  }
}

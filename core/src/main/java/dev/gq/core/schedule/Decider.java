package dev.gq.core.schedule;

import dev.gq.core.adopt.Adoption;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.cluster.ClusterDecisions;
import dev.gq.core.end.EndEvents;
import dev.gq.core.health.UnwellGpus;
import dev.gq.core.idle.IdleJobs;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.CappedSubmissions;
import dev.gq.core.ledger.Consequences;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Deletions;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.QueueControl;
import dev.gq.core.ledger.Retries;
import dev.gq.core.ledger.SubmitContext;
import dev.gq.core.recovery.Drift;
import dev.gq.core.recovery.JobFileIds;
import dev.gq.core.recovery.Recovery;
import dev.gq.core.schedule.Request.*;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Scheduler's one decision function: given the ledger, what it knows besides (the GPU registry,
 * readiness, jobs ending) and a request, it returns the events of one write, the answer, its next
 * state and the effects to run once the events are stored. Every write holds the request's own
 * events, what follows from them (automatic retries, fail-fast holds, dependents cancelled:
 * {@link Consequences}) and the reservations possible afterwards ({@link Reservations}); the GPUs freed by
 * jobs that end wait in the registry for a reading taken since. Reports carry what was observed; here
 * they are judged and worded: a job's end ({@link EndEvents}) and what the reconciler found
 * ({@link Recovery}, {@link Drift}). Pure.
 */
public final class Decider {
  private Decider() {}

  @SuppressWarnings("unchecked")
  public static <R> Decided<R> decide(Ledger l, SchedulerState s, Request<R> request, DecisionContext c) {
    return (Decided<R>) switch (request) {
      case Submit r -> FairPlan.timeRefusal(List.of(r.spec()), List.of(), c.fair()) != null
          ? new Decided<>(List.of(), FairPlan.timeRefusal(List.of(r.spec()), List.of(), c.fair()), null, s, false, null)
          : settled(l, s, CappedSubmissions.one(l, FairPlan.limited(r.spec(), c.fair()), r.maxRunning(), intake(s, c, r.facts())), c);
      case SubmitBatch r -> FairPlan.timeRefusal(r.specs(), r.lines(), c.fair()) != null
          ? new Decided<>(List.of(), FairPlan.timeRefusal(r.specs(), r.lines(), c.fair()), null, s, false, null)
          : settled(l, s, CappedSubmissions.batch(l, r.specs().stream().map(x -> FairPlan.limited(x, c.fair())).toList(), r.lines(),
              r.group(), r.maxRunning(), intake(s, c, r.facts())), c);
      case Retry r -> settled(l, s, Retries.decide(l, r.ids(), r.found(), r.cwdGone(), r.states(), r.group(), intake(s, c, r.facts())), c);
      case Remove r -> settled(l, s, Deletions.remove(l, r.ids(), r.facts(), c.now()), c);
      case Clean r -> settled(l, s, Deletions.clean(l, r.page(), r.states(), r.before(), c.now()), c);
      case Cancel r -> settled(l, s, Decision.accept(l.cancel(r.ids(), c.now()), CancelResults.of(l, r.ids())), c);
      case Preempt r -> settled(l, s, Preemptions.decide(l, r.ask(), c.now(), s.gpus().lastKnown()), c);
      case ResumeJobs r -> settled(l, s, Retries.decide(l, r.ids(), r.found(), r.cwdGone(), Set.of(), null,
          new Retries.ResumeMode(true, r.from()), intake(s, c, r.facts())), c);
      case HoldQueue r -> settled(l, s, QueueControl.hold(l, r.group(), c.now()), c);
      case ReleaseQueue r -> settled(l, s, QueueControl.release(l, r.group(), c.now()), c);
      case LimitGroup r -> settled(l, s, QueueControl.limit(l, r.group(), r.maxRunning(), c.now()), c);
      case SharePerGpu r -> settled(l, s, QueueControl.perGpu(l, r.group(), r.perGpu(), c.now()), c);
      case ChangeJob r -> settled(l, s, JobChanges.change(l, r.jobId(), r.change(), s.gpus().gpuCount(),
          s.gpus().lastKnown(), c.now()), c);
      case ToFront r -> settled(l, s, JobChanges.toFront(l, r.jobId(), c.now()), c);
      case HoldJobs r -> settled(l, s, JobChanges.hold(l, r.jobIds(), r.held(), c.now()), c);
      case DrainGpu r -> settled(l, s, QueueControl.drain(l, r.uuid(), r.index(), r.reason(), c.now()), c);
      case Adopt r -> settled(l, s, Adoption.decide(l, r.ask(), s.gpus().latest(), s.gpus().classified(l),
          c.now(), c.tags()), c);
      case Observed r -> observed(l, s, r, c);
      case Launched r -> live(l, r.jobId()) ? write(l, s, List.of(new JobLaunched(r.jobId(), r.identity(), c.now())), c)
          : Decided.nothing(s);
      case LaunchFailed r -> live(l, r.jobId()) ? write(l, s, List.of(new JobLaunchFailed(r.jobId(), r.reason(), c.now())), c)
          : Decided.nothing(s);
      case LaunchDeferred r -> deferred(l, s, r, c);
      case Ending r -> ending(l, s, r, c);
      case Ended r -> ended(l, s, r, c);
      case Reconciled r -> reconciled(l, s, r, c);
      case Drifted r -> drifted(l, s, r, c);
      case ClusterSent r -> settled(l, s, ClusterDecisions.sent(l, r.sent(), c.now()), c);
      case ClusterObserved r -> write(l, s, ClusterDecisions.observed(l, r.observation(), c.now()), c);
    };
  }

  /** A user's request: refused, answered without a write, or its events settled and written. */
  private static <R> Decided<R> settled(Ledger l, SchedulerState s, Decision<R> d, DecisionContext c) {
    if (d.refused()) return new Decided<>(List.of(), d.refusal(), null, s, false, null);
    if (d.events().isEmpty()) return new Decided<>(List.of(), null, d.result(), s, false, null);
    Decided<Void> w = write(l, s, d.events(), false, c.nanos(), c);
    return new Decided<>(w.events(), null, d.result(), w.next(), w.readGpus(), null);
  }

  private static Decided<Void> write(Ledger l, SchedulerState s, List<LedgerEvent> events, DecisionContext c) {
    return write(l, s, events, false, c.nanos(), c);
  }

  /**
   * {@code events}, what follows from them (endings concluded {@code byRecovery} hold nothing), and,
   * once start-up is over, the reservations possible afterwards. The GPUs freed by jobs found ended
   * at {@code endedNanos} are placed only on a reading taken after that moment.
   */
  private static Decided<Void> write(Ledger l, SchedulerState s, List<LedgerEvent> events, boolean byRecovery,
      long endedNanos, DecisionContext c) {
    List<LedgerEvent> all = new ArrayList<>(Consequences.of(l, events, c.failFast(), byRecovery, intake(s, c, Map.of())));
    Ledger folded = l;
    for (LedgerEvent e : all) folded = folded.apply(e);
    GpuRegistry gpus = s.gpus().freed(l, folded, all, endedNanos);
    SchedulerState next = s.with(gpus).withBackoff(s.backoff().after(l, folded, all));
    if (next.ready() && Reservations.mayPlaceAfter(l, all, c.failFast())) all.addAll(Reservations.next(folded, next, c));
    if (!next.ending().isEmpty() && !all.isEmpty()) next = next.withEnding(stillLive(next.ending(), folded));
    return new Decided<>(all, null, null, next, gpus.awaitsMoreThan(s.gpus()), null);
  }

  /** A reading: GPUs it shows again bring their ORPHANED jobs back to the reconciler; then place. */
  private static Decided<Void> observed(Ledger l, SchedulerState s, Observed r, DecisionContext c) {
    GpuRegistry gpus = s.gpus().observed(r.observation(), r.probe(), r.fake(), r.takenNanos());
    if (gpus == null) return Decided.nothing(s);
    List<LedgerEvent> signals = new ArrayList<>(unwell(l, s, r.observation(), c));
    IdleJobs.Seen seen = s.idle().observed(l.live().values(), r.observation().reading(), c.now(), c.idleAfter());
    seen.becameIdle().forEach(id -> signals.add(new JobIdleNoted(id, seen.next().zeroSince().get(id), c.now())));
    SchedulerState next = s.with(gpus).withIdle(seen.next());
    List<Job> back = Orphans.returned(l, r.observation().reading());
    Ledger reconcile = null;
    if (next.ready() && !back.isEmpty() && !next.reconciling()) {
      next = new SchedulerState(gpus, true, true, next.ending(), next.backoff(), next.idle());
      reconcile = Orphans.only(l, back);
    }
    if (next.ready()) signals.addAll(OverShares.told(l, gpus.classified(l), c.shareHeadroomMiB(), c.now()));
    Decided<Void> w = write(l, next, signals, c);
    return new Decided<>(w.events(), null, null, w.next(), w.readGpus(), reconcile);
  }

  /** The GPUs {@code o} shows newly unwell, drained before anything is placed on them. */
  private static List<LedgerEvent> unwell(Ledger l, SchedulerState s, GpuObservation o,
      DecisionContext c) {
    var before = s.gpus().latest() == null ? null : s.gpus().latest().reading();
    return UnwellGpus.drains(l, before, o.reading(), c.now());
  }

  /** Back to the queue; its GPUs wait for a reading taken since, which shows the other gq's lease. */
  private static Decided<Void> deferred(Ledger l, SchedulerState s, LaunchDeferred r, DecisionContext c) {
    Job j = l.live().get(r.jobId());
    if (j == null) return Decided.nothing(s);
    if (j.state() != JobState.STARTING) return write(l, s, List.of(new JobLaunchFailed(r.jobId(), r.reason(), c.now())), c);
    return write(l, s, List.of(new JobRequeued(r.jobId(), r.reason(), c.now())), c);
  }

  private static Decided<Void> ending(Ledger l, SchedulerState s, Ending r, DecisionContext c) {
    Set<Long> ending = new HashSet<>(s.ending());
    if (r.gone() && live(l, r.jobId())) {
      ending.add(r.jobId());
      return Decided.nothing(s.withEnding(ending));
    }
    // A job no longer ending may free its group's budget: place again.
    if (!r.gone() && ending.remove(r.jobId())) return write(l, s.withEnding(ending), List.of(), c);
    return Decided.nothing(s);
  }

  /**
   * The event that records how a job ended. The freed GPUs go to the next jobs in this same write,
   * but only on the reading the runner took after every process of the job was gone: an older one
   * may miss a process that opened its context since. Without it, or with a GPU that reading shows
   * in use, the GPU is read again at once (and placed when that reading comes).
   */
  private static Decided<Void> ended(Ledger l, SchedulerState s, Ended r, DecisionContext c) {
    Set<Long> ending = new HashSet<>(s.ending());
    ending.remove(r.jobId());
    SchedulerState cur = s.withEnding(ending);
    Job j = l.live().get(r.jobId());
    if (j == null) {
      // an end told twice: its reading may still carry a GPU's health, read once and only there
      List<LedgerEvent> unwell = r.after() == null ? List.of() : unwell(l, cur, r.after(), c);
      return unwell.isEmpty() ? Decided.nothing(cur) : write(l, cur, unwell, c);
    }
    List<LedgerEvent> events = new ArrayList<>(List.of(EndEvents.of(j, r.seen(), endTime(j, r, c))));
    if (r.after() != null) {
      events.addAll(unwell(l, cur, r.after(), c));
      cur = cur.with(cur.gpus().observed(r.after(), r.afterNanos()));
    }
    Decided<Void> w = write(l, cur, events, false, r.endedNanos(), c);
    Ledger folded = l;
    for (LedgerEvent e : w.events()) folded = folded.apply(e);
    boolean read = w.readGpus() || w.next().gpus().heldBack(folded, j);
    return new Decided<>(w.events(), null, null, w.next(), read, null);
  }

  /**
   * Stamped when the runner found the job ended, so an end whose write was delayed (a full disk) keeps
   * its time; never later than the decision, never before the job started.
   */
  private static Instant endTime(Job j, Ended r, DecisionContext c) {
    Instant at = r.endedAt() == null || r.endedAt().isAfter(c.now()) ? c.now() : r.endedAt();
    return j.startTime() != null && at.isBefore(j.startTime()) ? j.startTime() : at;
  }

  /** What the reconciler found, judged by the start-up rules; the first after start-up also ends start-up. */
  private static Decided<Void> reconciled(Ledger l, SchedulerState s, Reconciled r, DecisionContext c) {
    List<LedgerEvent> events = new ArrayList<>();
    // First, so that a retry decided in this write gets an id past the files too.
    if (!s.ready()) JobFileIds.skipPast(l, r.highestJobFileId(), c.now()).ifPresent(events::add);
    Map<Long, Recovery.Verdict> verdicts = Recovery.decideAll(l, r.facts(), c.now());
    verdicts.values().forEach(v -> events.addAll(v.events()));
    SchedulerState next = new SchedulerState(s.gpus(), true, false, s.ending(), s.backoff(), s.idle());
    Decided<Void> w = write(l, next, events, true, c.nanos(), c);
    return new Decided<>(w.events(), null, null, w.next(), w.readGpus(), null, verdicts, true);
  }

  /** What a periodic pass found, judged for what no runner can see; nothing before start-up is over (a restart). */
  private static Decided<Void> drifted(Ledger l, SchedulerState s, Drifted r, DecisionContext c) {
    if (!s.ready()) return Decided.nothing(s);
    Map<Long, Recovery.Verdict> mine = Drift.decide(l, r.seen(), r.facts(), r.watched(), c.now());
    if (mine.isEmpty()) return Decided.nothing(s);
    List<LedgerEvent> events = new ArrayList<>();
    mine.values().forEach(v -> events.addAll(v.events()));
    Decided<Void> w = write(l, s, events, true, c.nanos(), c);
    return new Decided<>(w.events(), null, null, w.next(), w.readGpus(), null, mine, false);
  }

  private static SubmitContext intake(SchedulerState s, DecisionContext c, Map<Long, LineageFact> facts) {
    return new SubmitContext(c.now(), c.tags(), c.logPaths(), s.gpus().gpuCount(), s.gpus().gpuError(), facts,
        SubmitContext.MAX_LIVE_JOBS, s.gpus().lastKnown());
  }

  /** Those of {@code ending} still live in {@code folded}, the ledger once the write is stored. */
  private static Set<Long> stillLive(Set<Long> ending, Ledger folded) {
    Set<Long> out = new HashSet<>(ending);
    out.removeIf(id -> !folded.live().containsKey(id));
    return out;
  }

  private static boolean live(Ledger l, long id) {
    return l.live().containsKey(id);
  }
}

package dev.gq.core.ledger;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.LedgerEvent.JobCancelled;
import dev.gq.core.ledger.LedgerEvent.JobEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules of {@code --after} and {@code --after-ok}: resolving a spec's dependencies at submit
 * (a live job, or the newest attempt of an ended job's lineage, whose end is already known),
 * tracking them as jobs end or are retried, the wait reason, and cancelling a dependent whose
 * {@code --after-ok} job ended without success. A PREEMPTED job has not ended its work: its
 * dependents wait for its resume, the next attempt of its lineage. Pure.
 */
public final class Dependencies {
  private Dependencies() {}

  /** A resolved dependency, or the one line saying why it cannot be. */
  record Resolved(Prerequisite prerequisite, String refusal) {}

  /** Resolves one dependency against the ledger and what the history says ({@code facts}, by job id). */
  static Resolved resolve(Ledger l, Dependency d, Map<Long, LineageFact> facts) {
    long id = d.jobId();
    Job live = l.live().get(id);
    if (live != null && d.okOnly() && live.adopted())
      return refuse("job " + id + " was adopted, so gq will never know whether it succeeded; use --after instead of --after-ok");
    if (live != null) return ok(new Prerequisite(id, live.lineage(), d.okOnly(), null));
    LineageFact f = facts.get(id);
    // ended while this request was on its way, before the history had it
    if (f == null && l.recentEnd(id) != null) return refuse("job " + id + " changed state while this request was on its way; submit again");
    if (f == null) return refuse("job " + id + " does not exist; --after and --after-ok take the id of a submitted job");
    Optional<Job> newer = l.liveInLineage(f.lineage());
    if (newer.isPresent()) return ok(new Prerequisite(newer.get().id(), f.lineage(), d.okOnly(), null));
    JobState s = f.newestState() != null && f.newestState().terminal() ? f.newestState() : l.recentEnd(f.newest());
    String which = f.newest() == id ? "job " + id : "job " + id + " (retried as job " + f.newest() + ")";
    if (s == null) return refuse(which + " changed state while this request was on its way; submit again");
    // A preempted job's work is not over: the dependent waits for its resume, as for a retry.
    if (s == JobState.PREEMPTED) return ok(new Prerequisite(f.newest(), f.lineage(), d.okOnly(), s));
    if (d.okOnly() && s != JobState.DONE)
      return refuse(which + " ended " + s + ", so a job that needs it to succeed would never start; "
          + "retry it first, or use --after instead of --after-ok");
    return ok(new Prerequisite(f.newest(), f.lineage(), d.okOnly(), s));
  }

  private static Resolved ok(Prerequisite p) {
    return new Resolved(p, null);
  }

  private static Resolved refuse(String why) {
    return new Resolved(null, why);
  }

  /** Why a waiting job with these prerequisites may not start yet; null when they are all met. */
  static WaitReason waitReason(List<Prerequisite> ps) {
    if (ps == null) return null;
    for (Prerequisite p : ps) {
      if (p.broken()) return new WaitReason.AfterFailed(p.jobId(), p.ended());
      if (p.ended() == JobState.PREEMPTED) return new WaitReason.AfterPreempted(p.jobId());
      if (!p.met()) return new WaitReason.After(p.jobId(), p.okOnly());
    }
    return null;
  }

  /** The prerequisites after {@code event} turned a job into {@code after}. */
  static Map<Long, List<Prerequisite>> apply(Map<Long, List<Prerequisite>> waits, JobEvent event, Job after) {
    PersistentMap<Long, List<Prerequisite>> w = Ledger.map(waits);
    if (event instanceof JobSubmitted s) {
      if (s.retryOf() != null && !w.isEmpty()) w = follow(w, s.retryOf(), s.jobId());
      return s.waitsFor().isEmpty() ? w : w.plus(s.jobId(), s.waitsFor());
    }
    if (after.state() != JobState.WAITING) w = w.minus(after.id());
    if (after.state().terminal() && !w.isEmpty()) w = ended(w, after);
    return w;
  }

  /** Records how {@code j} ended in every prerequisite still waiting for it. */
  private static PersistentMap<Long, List<Prerequisite>> ended(PersistentMap<Long, List<Prerequisite>> w, Job j) {
    PersistentMap<Long, List<Prerequisite>> out = w;
    for (Map.Entry<Long, List<Prerequisite>> e : w.entrySet()) {
      List<Prerequisite> ps = e.getValue();
      if (ps.stream().noneMatch(p -> p.jobId() == j.id() && p.ended() == null)) continue;
      out = out.plus(e.getKey(), ps.stream().map(p -> p.jobId() == j.id() && p.ended() == null ? p.endedAs(j.state()) : p).toList());
    }
    return out;
  }

  /** Moves every unmet prerequisite of lineage {@code lineage} to its new attempt {@code newJobId}. */
  private static PersistentMap<Long, List<Prerequisite>> follow(PersistentMap<Long, List<Prerequisite>> w, long lineage, long newJobId) {
    PersistentMap<Long, List<Prerequisite>> out = w;
    for (Map.Entry<Long, List<Prerequisite>> e : w.entrySet()) {
      List<Prerequisite> ps = e.getValue();
      if (ps.stream().noneMatch(p -> moves(p, lineage))) continue;
      out = out.plus(e.getKey(), ps.stream().map(p -> moves(p, lineage) ? p.movedTo(newJobId) : p).toList());
    }
    return out;
  }

  private static boolean moves(Prerequisite p, long lineage) {
    return p.lineage() == lineage && p.ended() != JobState.DONE;
  }

  /** Cancels each waiting job one of whose {@code --after-ok} jobs ended without success. */
  static List<LedgerEvent> cancellations(Ledger l, Instant now) {
    List<LedgerEvent> out = new ArrayList<>();
    for (Map.Entry<Long, List<Prerequisite>> e : l.waits().entrySet()) {
      Job j = l.live().get(e.getKey());
      if (j == null || j.state() != JobState.WAITING) continue;
      e.getValue().stream().filter(Prerequisite::broken).findFirst().ifPresent(p -> out.add(new JobCancelled(j.id(),
          "job " + p.jobId() + ", which had to succeed first (--after-ok), ended " + p.ended(), now)));
    }
    return out;
  }
}

package dev.gq.core.ledger;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.GroupReleased;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The retry decision: each ended original, if it may be retried, becomes a new WAITING job with
 * the same spec whose {@code retryOf} is the lineage root, and each held group a retry lands in is
 * released. An original is skipped, with the reason, when it is still live, its state is not one
 * asked for (by default FAILED, CANCELLED, INTERRUPTED, TIMEOUT), its lineage has a newer attempt,
 * it needs more GPUs than are visible, its key is held by a live or successful job, or a job it
 * depends on cannot be followed. A retry means "the cause is fixed, go again", so a fail-fast hold
 * is also released when the retry names its group, or when an original is skipped because its cell
 * already waits there as a newer job (the sweep was submitted again): otherwise those jobs would
 * never start. A hold the user set is released only by a retry that lands in it. Pure; all in one
 * decision.
 */
public final class Retries {
  private Retries() {}

  /** The states retried when no filter is given. */
  public static final Set<JobState> RETRYABLE =
      EnumSet.of(JobState.FAILED, JobState.CANCELLED, JobState.INTERRUPTED, JobState.TIMEOUT, JobState.PREEMPTED);

  /**
   * How the new attempts take up the work: a PREEMPTED job's always resumes from its newest
   * checkpoint; with {@code all}, every job's does ({@code gq resume}), from {@code from} when it is
   * not null (an absolute path).
   */
  public record ResumeMode(boolean all, String from) {
    /** A retry: only a PREEMPTED job's attempt resumes. */
    public static final ResumeMode PREEMPTED_ONLY = new ResumeMode(false, null);
  }

  public record Retried(long originalId, long newId) {}

  public record Skipped(long id, String reason) {}

  public record Outcome(List<Retried> retried, List<Skipped> skipped, List<String> released) {}

  /**
   * Decides a retry of the jobs {@code ids} names, in that order: {@code found} holds each one that
   * exists (live or in the history) and {@code cwdGone} those whose working directory no longer
   * exists. A missing job or directory is skipped with its reason; the others are decided below.
   * Skips come back in the order of {@code ids}.
   */
  public static Decision<Outcome> decide(Ledger l, List<Long> ids, Map<Long, Job> found, Set<Long> cwdGone,
      Set<JobState> states, String group, SubmitContext in) {
    return decide(l, ids, found, cwdGone, states, group, ResumeMode.PREEMPTED_ONLY, in);
  }

  /** As above, the new attempts resuming as {@code resume} says. */
  public static Decision<Outcome> decide(Ledger l, List<Long> ids, Map<Long, Job> found, Set<Long> cwdGone,
      Set<JobState> states, String group, ResumeMode resume, SubmitContext in) {
    List<Job> originals = new ArrayList<>();
    List<Skipped> early = new ArrayList<>();
    for (long id : new LinkedHashSet<>(ids)) {
      Job j = found.get(id);
      if (j == null) early.add(new Skipped(id, "job " + id + " does not exist"));
      else if (cwdGone.contains(id))
        early.add(new Skipped(id, "job " + id + ": its working directory no longer exists: " + j.spec().cwd()));
      else originals.add(j);
    }
    Decision<Outcome> d = decide(l, originals, states, group, resume, in);
    if (d.refused() || early.isEmpty()) return d;
    List<Skipped> skipped = new ArrayList<>(early);
    skipped.addAll(d.result().skipped());
    Map<Long, Integer> order = new HashMap<>();
    for (long id : ids) order.putIfAbsent(id, order.size());
    skipped.sort(Comparator.comparingInt(x -> order.getOrDefault(x.id(), Integer.MAX_VALUE)));
    return Decision.accept(d.events(), new Outcome(d.result().retried(), skipped, d.result().released()));
  }

  /** Decides a retry of {@code originals} (from the history), restricted to {@code states} when not empty. */
  public static Decision<Outcome> decide(Ledger l, List<Job> originals, Set<JobState> states, SubmitContext in) {
    return decide(l, originals, states, null, in);
  }

  /** As above, for a retry that names {@code group} (null: none), whose fail-fast hold it then releases. */
  public static Decision<Outcome> decide(Ledger l, List<Job> originals, Set<JobState> states, String group, SubmitContext in) {
    return decide(l, originals, states, group, ResumeMode.PREEMPTED_ONLY, in);
  }

  /** As above, the new attempts resuming as {@code resume} says. */
  public static Decision<Outcome> decide(Ledger l, List<Job> originals, Set<JobState> states, String group, ResumeMode resume,
      SubmitContext in) {
    Set<JobState> allowed = states == null || states.isEmpty() ? RETRYABLE : EnumSet.copyOf(states);
    List<LedgerEvent> events = new ArrayList<>();
    List<Retried> retried = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    Set<String> released = new LinkedHashSet<>();
    Ledger folded = l;
    for (Job o : originals) {
      List<Prerequisite> ps = new ArrayList<>();
      String why = why(folded, o, allowed, in, ps, resume.all() ? "resumed" : "retried");
      if (why == null && resume.all() && o.spec().onCluster())
        why = "job " + o.id() + " ran on a Slurm cluster; resuming from a checkpoint is for this machine's jobs ('gq retry " + o.id() + "' runs it again)";
      if (why != null) {
        skipped.add(new Skipped(o.id(), why));
        String waitsAgain = waitsAgain(folded, o);
        if (waitsAgain != null) folded = release(folded, waitsAgain, released, events, in);
        continue;
      }
      long id = folded.nextId();
      JobSpec spec = attemptSpec(o.spec(), resume.all() || endedState(folded, o) == JobState.PREEMPTED, resume.from());
      var submitted = new JobSubmitted(id, spec, in.tags().get(), in.logPaths().apply(id), o.lineage(), ps, in.now());
      LedgerEvent e = spec.hasCommand() ? submitted : submitted.sharing(o.id(), spec);
      events.add(e);
      folded = folded.apply(e);
      retried.add(new Retried(o.id(), id));
      String g = o.spec().group();
      if (g != null && folded.holds().containsKey(g)) folded = release(folded, g, released, events, in);
    }
    if (group != null && folded.autoHeld().contains(group)) folded = release(folded, group, released, events, in);
    return Decision.accept(events, new Outcome(retried, skipped, List.copyOf(released)));
  }

  private static Ledger release(Ledger l, String group, Set<String> released, List<LedgerEvent> events, SubmitContext in) {
    if (!l.holds().containsKey(group) || !released.add(group)) return l;
    LedgerEvent r = new GroupReleased(group, in.now());
    events.add(r);
    return l.apply(r);
  }

  /**
   * The fail-fast-held group in which {@code o}'s cell already waits as a newer job (its key's
   * holder, submitted again since), or null.
   */
  private static String waitsAgain(Ledger l, Job o) {
    String key = o.spec().key(), g = o.spec().group();
    if (key == null || g == null || !l.autoHeld().contains(g)) return null;
    Ledger.KeyHolder h = l.keys().get(key);
    if (h == null || h.jobId() <= o.id()) return null;
    Job newer = l.live().get(h.jobId());
    return newer != null && newer.state() == JobState.WAITING && g.equals(newer.spec().group()) ? g : null;
  }

  /** Why {@code o} is not retried, or null (then {@code ps} holds its resolved prerequisites). */
  private static String why(Ledger l, Job o, Set<JobState> allowed, SubmitContext in, List<Prerequisite> ps, String verb) {
    long id = o.id();
    String full = Submissions.overLimit(l, 1, in.maxLive());
    if (full != null) return "job " + id + ": " + full;
    JobState s = endedState(l, o);
    if (s == null || !s.terminal()) return "job " + id + " is " + (s == null ? o.state() : s) + "; only ended jobs are " + verb;
    if (!allowed.contains(s)) return "job " + id + " is " + s + "; only " + names(allowed) + " jobs are " + verb;
    var newer = l.liveInLineage(o.lineage());
    if (newer.isPresent()) return "job " + id + " was already " + verb + " as job " + newer.get().id();
    LineageFact f = in.facts().get(id);
    if (f != null && f.newest() > id) return "job " + id + " was already " + verb + " as job " + f.newest();
    int g = o.spec().gpus();
    if (g > 0 && g > in.gpuCount()) return "job " + id + " needs " + g + " GPU(s) but " + Math.max(in.gpuCount(), 0) + " are visible";
    var skip = Submissions.keySkip(l, o.spec().key());
    if (skip != null && skip.jobId() != id)
      return "job " + id + ": its key '" + o.spec().key() + "' is already " + skip.state() + " as job " + skip.jobId();
    for (Dependency d : o.spec().after()) {
      var r = Dependencies.resolve(l, d, in.facts());
      if (r.refusal() != null) return "job " + id + ": " + r.refusal();
      ps.add(r.prerequisite());
    }
    return null;
  }

  /**
   * The spec of a new attempt of a job with {@code spec}: resuming from {@code from} (null: the
   * newest checkpoint) when {@code resume}; an attempt of a resume resumes too, from the newest.
   */
  static JobSpec attemptSpec(JobSpec spec, boolean resume, String from) {
    if (resume) return spec.resuming(from);
    return spec.resumes() ? spec.resuming(null) : spec;
  }

  /** {@code o}'s state now: live, as read from the history, or as it ended lately (null: unknown). */
  private static JobState endedState(Ledger l, Job o) {
    Job live = l.live().get(o.id());
    return live != null ? live.state() : o.state().terminal() ? o.state() : l.recentEnd(o.id());
  }

  private static String names(Set<JobState> states) {
    List<String> n = states.stream().sorted().map(JobState::name).toList();
    if (n.size() == 1) return n.get(0);
    return String.join(", ", n.subList(0, n.size() - 1)) + " and " + n.get(n.size() - 1);
  }
}

package dev.gq.core.ledger;

import dev.gq.core.job.Attempts;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Scheduler's state: the live jobs (every state not ended; see {@link JobState#live()}) with
 * their reservations, the next job id, who holds each idempotency key, the hold on the whole queue
 * ({@code queueHeld}; snapshots store it as {@code paused}, its earlier name) and group holds, and
 * for sweeps only what the decisions need: each waiting job's prerequisites, each group's current
 * run of failures (bounded), and the last few endings. Ended jobs leave the ledger (they live in
 * the history), and a live job is kept without its command (argv and environment) and log path,
 * which the runner reads from the database when it launches the job. Immutable, and cheap to
 * change: the maps are persistent, so {@link #apply} copies one path, never a whole map (a job's
 * event is applied by {@link LedgerJobEvents}). Decisions are pure methods returning events; only
 * {@link #apply} changes state. Invariant: no GPU UUID is held by two live jobs.
 */
public record Ledger(
    long nextId,
    Map<Long, Job> live,
    Map<String, KeyHolder> keys,
    boolean queueHeld,
    Map<String, String> holds,
    Set<String> autoHeld,
    Map<Long, List<Prerequisite>> waits,
    Map<String, List<StreakFailure>> streaks,
    List<RecentEnd> recentEnds,
    QueueSettings settings) {

  /** How many endings {@link #recentEnds} keeps (for a dependency whose job ends while its submit is on its way). */
  static final int RECENT = 32;

  /** The newest job submitted with a key, and its state. */
  public record KeyHolder(long jobId, JobState state) {}

  /**
   * A FAILED job of a group's current run of failures, how long it had run, and why it failed
   * (its failure reason, cut to {@link FailFast#REASON_CHARS}; null when none is known, as in runs
   * stored before reasons were kept).
   */
  public record StreakFailure(long jobId, long ranMillis, String reason) {}

  /** A job that ended lately, and how. */
  public record RecentEnd(long jobId, JobState state) {}

  public Ledger {
    live = PersistentMap.of(live);
    keys = PersistentMap.of(keys);
    holds = holds == null ? Map.of() : Map.copyOf(holds);
    autoHeld = autoHeld == null ? Set.of() : Set.copyOf(autoHeld);
    waits = PersistentMap.of(waits);
    streaks = PersistentMap.of(streaks);
    recentEnds = recentEnds == null ? List.of() : List.copyOf(recentEnds);
    settings = settings == null ? QueueSettings.NONE : settings;
  }

  /** A ledger without queue settings (as stored before they existed). */
  public Ledger(long nextId, Map<Long, Job> live, Map<String, KeyHolder> keys, boolean queueHeld, Map<String, String> holds,
      Set<String> autoHeld, Map<Long, List<Prerequisite>> waits, Map<String, List<StreakFailure>> streaks, List<RecentEnd> recentEnds) {
    this(nextId, live, keys, queueHeld, holds, autoHeld, waits, streaks, recentEnds, QueueSettings.NONE);
  }

  /** A ledger without sweep state (no prerequisites, failure runs or recent endings). */
  public Ledger(long nextId, Map<Long, Job> live, Map<String, KeyHolder> keys, boolean queueHeld, Map<String, String> holds) {
    this(nextId, live, keys, queueHeld, holds, Set.of(), Map.of(), Map.of(), List.of());
  }

  /** This ledger with every live job's spec stripped of its command (a snapshot written before they were). */
  public Ledger withoutCommands() {
    PersistentMap<Long, Job> m = map(live);
    for (Job j : live.values()) if (j.spec().hasCommand() || j.logPath() != null) m = m.plus(j.id(), j.withoutCommand());
    return new Ledger(nextId, m, keys, queueHeld, holds, autoHeld, waits, streaks, recentEnds, settings);
  }

  public static Ledger empty() {
    return new Ledger(1, Map.of(), Map.of(), false, Map.of());
  }

  /** Why each waiting job may not start now: the held queue, its group's hold, or a job it waits for. */
  public Map<Long, WaitReason> blocked() {
    Map<Long, WaitReason> out = new HashMap<>();
    for (Job j : live.values()) {
      WaitReason why = blocked(j);
      if (why != null) out.put(j.id(), why);
    }
    return out;
  }

  /** Why job {@code j} may not start now, as {@link #blocked()} says it; null when it is not waiting or nothing holds it. */
  public WaitReason blocked(Job j) {
    if (j.state() != JobState.WAITING) return null;
    String g = j.spec().group();
    if (heldAlone(j)) return new WaitReason.Held(j.id());
    if (queueHeld) return new WaitReason.QueueHeld();
    if (g != null && holds.containsKey(g)) return new WaitReason.GroupHeld(g, holds.get(g));
    return prerequisites(j);
  }

  // The empty set and map are asked first: a plan asks these of every waiting job, and a lookup
  // boxes the job's id.

  /** Whether {@code j} is held on its own ({@code gq hold JOB}). */
  private boolean heldAlone(Job j) {
    return !settings.heldJobs().isEmpty() && settings.heldJobs().contains(j.id());
  }

  /** Why {@code j}'s prerequisites keep it waiting; null when none does. */
  private WaitReason prerequisites(Job j) {
    return waits.isEmpty() ? null : Dependencies.waitReason(waits.get(j.id()));
  }

  /** Whether {@code j} waits and may start now as far as holds and prerequisites go (no reason of {@link #blocked()}). */
  public boolean mayStart(Job j) {
    if (j.state() != JobState.WAITING || queueHeld || heldAlone(j)) return false;
    String g = j.spec().group();
    return (g == null || !holds.containsKey(g)) && prerequisites(j) == null;
  }

  /** Outcome of a submit: the new job, or the holder of the key when skipped. */
  public record SubmitOutcome(long jobId, boolean skipped, JobState state, String message, Queueing queueing) {
    public SubmitOutcome(long jobId, boolean skipped, JobState state, String message) {
      this(jobId, skipped, state, message, Queueing.FREE);
    }
  }

  /** Cancels what can be cancelled among {@code ids}: WAITING ones at once, active ones by request. */
  public List<LedgerEvent> cancel(List<Long> ids, Instant now) {
    List<LedgerEvent> events = new ArrayList<>();
    for (long id : ids) {
      Job j = live.get(id);
      if (j == null || !j.state().cancellable()) continue;
      // a cluster job Slurm holds is cancelled there first (scancel); its end comes from Slurm
      if (j.state() == JobState.WAITING && !settings.clusterIds().containsKey(id))
        events.add(new JobCancelled(id, "cancelled before it started", now));
      else events.add(new JobCancelRequested(id, now));
    }
    return events;
  }

  /** Whether {@code id} was ever issued (so a missing live job has ended rather than never existed). */
  public boolean issued(long id) {
    return id > 0 && id < nextId;
  }

  /**
   * The WAITING jobs of this machine in the order they get GPUs: higher priority first, then oldest
   * first. Jobs a Slurm cluster runs are not among them.
   */
  public List<Job> waiting() {
    List<Job> w = live.values().stream().filter(QueueOrder::queued).toList();
    if (w.stream().allMatch(j -> j.spec().priority() == 0)) return w;
    return w.stream().sorted(QueueOrder.ORDER).toList();
  }

  /** The live attempt of retry lineage {@code lineage} (there is at most one), if any. */
  public Optional<Job> liveInLineage(long lineage) {
    Job j = live.get(lineage);
    if (j != null) return Optional.of(j);
    return Attempts.newest(lineage, live.values());
  }

  /** How job {@code id} ended, when it is among the last few endings; null otherwise. */
  public JobState recentEnd(long id) {
    for (RecentEnd e : recentEnds) if (e.jobId() == id) return e.state();
    return null;
  }

  /** GPU UUID → the live job that holds it. */
  public Map<String, Job> reservations() {
    Map<String, Job> r = new HashMap<>();
    for (Job j : live.values()) {
      if (!j.state().holdsGpus()) continue;
      for (GpuSlot s : j.gpus()) r.put(s.uuid(), j);
    }
    return r;
  }

  /** GPU UUID → every live job that holds it: one, or several shared jobs ({@code --share}); unmodifiable. */
  public Map<String, List<Job>> holders() {
    return HeldGpus.of(live);
  }

  /** Applies one persisted event. Deterministic: no clock, no I/O. */
  public Ledger apply(LedgerEvent event) {
    return switch (event) {
      case QueuePaused e -> new Ledger(nextId, live, keys, true, holds, autoHeld, waits, streaks, recentEnds, settings);
      case QueueResumed e -> new Ledger(nextId, live, keys, false, holds, autoHeld, waits, streaks, recentEnds, settings);
      case GroupHeld e -> new Ledger(nextId, live, keys, queueHeld, with(holds, e.group(), e.reason()),
          e.automatic() ? plus(autoHeld, e.group()) : autoHeld, waits, streaks, recentEnds, settings);
      case GroupReleased e -> new Ledger(nextId, live, keys, queueHeld, with(holds, e.group(), null),
          minus(autoHeld, e.group()), waits, map(streaks).minus(e.group()), recentEnds, settings);
      case JobsRemoved e -> new Ledger(nextId, live, keysWithout(e.jobIds()), queueHeld, holds, autoHeld, waits, streaks,
          recentEnds, settings);
      case JobIdsSkipped e -> new Ledger(Math.max(nextId, e.nextId()), live, keys, queueHeld, holds, autoHeld, waits, streaks,
          recentEnds, settings);
      case GroupLimitSet e -> withSettings(settings.limit(e.group(), e.maxRunning()));
      case GpuDrained e -> withSettings(settings.drain(e.uuid(), e.reason()));
      case GpuResumed e -> withSettings(settings.drain(e.uuid(), null));
      case JobIdleNoted e -> this;
      case ClusterUnreachable e -> withSettings(settings.reach(e.profile(), e.reason()));
      case ClusterReachable e -> withSettings(settings.reach(e.profile(), null));
      case GroupPerGpuSet e -> withSettings(settings.perGpu(e.group(), e.perGpu()));
      case JobOverShare e -> withSettings(live.containsKey(e.jobId()) ? settings.toldOver(e.jobId()) : settings);
      case JobsHeld e -> withSettings(settings.hold(e.jobIds(), e.held()));
      case JobEvent e -> LedgerJobEvents.apply(this, e);
    };
  }

  private Ledger withSettings(QueueSettings s) {
    return new Ledger(nextId, live, keys, queueHeld, holds, autoHeld, waits, streaks, recentEnds, s);
  }

  @SuppressWarnings("unchecked")
  static <K, V> PersistentMap<K, V> map(Map<K, V> m) {
    return (PersistentMap<K, V>) m;
  }

  private static <V> Map<String, V> with(Map<String, V> m, String k, V v) {
    Map<String, V> copy = new HashMap<>(m);
    if (v == null) copy.remove(k);
    else copy.put(k, v);
    return copy;
  }

  private static Set<String> plus(Set<String> s, String x) {
    Set<String> copy = new HashSet<>(s);
    copy.add(x);
    return copy;
  }

  private static Set<String> minus(Set<String> s, String x) {
    Set<String> copy = new HashSet<>(s);
    copy.remove(x);
    return copy;
  }

  private Map<String, KeyHolder> keysWithout(List<Long> removed) {
    Set<Long> gone = Set.copyOf(removed);
    PersistentMap<String, KeyHolder> m = map(keys);
    for (Map.Entry<String, KeyHolder> e : keys.entrySet())
      if (gone.contains(e.getValue().jobId()) && !live.containsKey(e.getValue().jobId())) m = m.minus(e.getKey());
    return m;
  }
}

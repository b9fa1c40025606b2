package dev.gq.core.ledger;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * The Scheduler's state: the live jobs (waiting, starting, running, cancelling, orphaned) with
 * their reservations, the next job id, and who holds each idempotency key. Finished jobs leave the
 * ledger (history lives in the read side). Immutable: {@link #apply} returns a new Ledger, so a
 * snapshot is always consistent. Decisions are pure methods returning events; only {@link #apply}
 * changes state. Invariant: no GPU UUID is held by two live jobs.
 */
public record Ledger(
    long nextId, SortedMap<Long, Job> live, Map<String, KeyHolder> keys, boolean paused, Map<String, String> holds) {

  /** The newest job submitted with a key, and its state. */
  public record KeyHolder(long jobId, JobState state) {}

  public Ledger {
    live = Collections.unmodifiableSortedMap(new TreeMap<>(live));
    keys = Map.copyOf(keys);
    holds = holds == null ? Map.of() : Map.copyOf(holds);
  }

  public static Ledger empty() {
    return new Ledger(1, new TreeMap<>(), Map.of(), false, Map.of());
  }

  /** Why each waiting job may not start now: the paused queue, or its group's hold. */
  public Map<Long, String> blocked() {
    Map<Long, String> out = new HashMap<>();
    for (Job j : live.values()) {
      if (j.state() != JobState.WAITING) continue;
      String g = j.spec().group();
      if (paused) out.put(j.id(), "the queue is paused; resume it with 'gq daemon resume'");
      else if (g != null && holds.containsKey(g)) out.put(j.id(), "group " + g + " is held: " + holds.get(g));
    }
    return out;
  }

  /** Outcome of a submit: the new job, or the holder of the key when skipped. */
  public record SubmitOutcome(long jobId, boolean skipped, JobState state, String message) {}

  /**
   * Decides a submit. {@code gpuCount} is the number of GPUs the probe sees (-1 when no reading
   * has succeeded yet; then GPU jobs are refused with the probe's error {@code gpuError}).
   */
  public Decision<SubmitOutcome> submit(
      JobSpec spec, Instant now, String tag, LongFunction<String> logPathFor, int gpuCount, String gpuError) {
    String bad = SpecRules.check(spec);
    if (bad != null) return Decision.refuse(bad);
    if (spec.gpus() > 0 && gpuCount < 0)
      return Decision.refuse("job asks for " + spec.gpus() + " GPU(s) but 0 are visible ("
          + (gpuError == null ? "no GPU reading yet" : gpuError) + "); see 'gq gpu', or use -g 0 for a CPU-only job");
    if (spec.gpus() > gpuCount && spec.gpus() > 0)
      return Decision.refuse("job asks for " + spec.gpus() + " GPU(s) but this machine has " + gpuCount
          + " visible; ask for at most " + gpuCount);
    if (spec.key() != null) {
      KeyHolder h = keys.get(spec.key());
      if (h != null && !reusable(h.state())) {
        String msg = "Skipped: key '" + spec.key() + "' is already " + h.state() + " as job " + h.jobId();
        return Decision.accept(List.of(), new SubmitOutcome(h.jobId(), true, h.state(), msg));
      }
    }
    long id = nextId;
    var ev = new JobSubmitted(id, spec, tag, logPathFor.apply(id), null, now);
    return Decision.accept(List.of(ev), new SubmitOutcome(id, false, JobState.WAITING, null));
  }

  private static boolean reusable(JobState s) {
    return s == JobState.FAILED || s == JobState.CANCELLED || s == JobState.INTERRUPTED;
  }

  /** Cancels what can be cancelled among {@code ids}: WAITING ones at once, active ones by request. */
  public List<LedgerEvent> cancel(List<Long> ids, Instant now) {
    List<LedgerEvent> events = new ArrayList<>();
    for (long id : ids) {
      Job j = live.get(id);
      if (j == null) continue;
      switch (j.state()) {
        case WAITING -> events.add(new JobCancelled(id, "cancelled before it started", now));
        case STARTING, RUNNING -> events.add(new JobCancelRequested(id, now));
        default -> {}
      }
    }
    return events;
  }

  /** Whether {@code id} was ever issued (so a missing live job has ended rather than never existed). */
  public boolean issued(long id) {
    return id > 0 && id < nextId;
  }

  public List<Job> waiting() {
    return live.values().stream().filter(j -> j.state() == JobState.WAITING).toList();
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

  /** Applies one persisted event. Deterministic: no clock, no I/O. */
  public Ledger apply(LedgerEvent event) {
    return switch (event) {
      case QueuePaused e -> new Ledger(nextId, live, keys, true, holds);
      case QueueResumed e -> new Ledger(nextId, live, keys, false, holds);
      case GroupHeld e -> new Ledger(nextId, live, keys, paused, with(holds, e.group(), e.reason()));
      case GroupReleased e -> new Ledger(nextId, live, keys, paused, with(holds, e.group(), null));
      case JobEvent e -> applyJob(e);
    };
  }

  private Ledger applyJob(JobEvent event) {
    Job before = event instanceof JobSubmitted ? null : live.get(event.jobId());
    if (before == null && !(event instanceof JobSubmitted))
      throw new IllegalStateException("event for a job that is not live: " + event);
    Job after = JobTransitions.next(before, event);
    long next = Math.max(nextId, event.jobId() + 1);
    TreeMap<Long, Job> m = with(after);
    if (after.state().terminal()) m.remove(after.id());
    return new Ledger(next, m, keysWith(after), paused, holds);
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> copy = new HashMap<>(m);
    if (v == null) copy.remove(k);
    else copy.put(k, v);
    return copy;
  }

  private TreeMap<Long, Job> with(Job j) {
    TreeMap<Long, Job> m = new TreeMap<>(live);
    m.put(j.id(), j);
    return m;
  }

  private Map<String, KeyHolder> keysWith(Job j) {
    String key = j.spec().key();
    if (key == null) return keys;
    KeyHolder cur = keys.get(key);
    if (cur != null && cur.jobId() > j.id()) return keys;
    Map<String, KeyHolder> m = new HashMap<>(keys);
    m.put(key, new KeyHolder(j.id(), j.state()));
    return m;
  }
}

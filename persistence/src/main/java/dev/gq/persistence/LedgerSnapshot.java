package dev.gq.persistence;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.Prerequisite;
import dev.gq.core.ledger.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Scheduler's ledger as a snapshot stores it: each waiting job as a short record of what
 * scheduling needs, with absent and default fields left out, and the few other live jobs whole.
 * A queue of 100,000 jobs then costs a snapshot about a quarter of what the ledger's own shape
 * would, in the bytes written and in the memory needed to write them. Snapshots stored as a
 * {@link Ledger} still load (the Scheduler accepts both), and so do snapshots stored before the
 * queue's settings existed (none then). The queue's hold is stored under its earlier name,
 * {@code paused}.
 */
public record LedgerSnapshot(
    long nextId,
    List<Waiting> waiting,
    List<Job> active,
    Map<String, Ledger.KeyHolder> keys,
    @JsonProperty("paused") boolean queueHeld,
    Map<String, String> holds,
    Set<String> autoHeld,
    Map<Long, List<Prerequisite>> waits,
    Map<String, List<Ledger.StreakFailure>> streaks,
    List<Ledger.RecentEnd> recentEnds,
    QueueSettings settings) {

  /** A waiting job: its id, spec without command, submit time, tag and lineage; read by {@link WaitingReader}. */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  @JsonDeserialize(using = WaitingReader.class)
  public record Waiting(long id, String cwd, int gpus, String name, String group, String key, List<Dependency> after,
      int retries, Duration timeLimit, Instant at, String tag, Long retryOf, int priority, Instant begin, String resumeArg,
      String resumeFrom, String cluster, GpuNeed gpuNeed) {

    static Waiting of(Job j) {
      JobSpec s = j.spec();
      return new Waiting(j.id(), s.cwd(), s.gpus(), s.name(), s.group(), s.key(), s.after().isEmpty() ? null : s.after(),
          s.retries(), s.timeLimit(), j.submitTime(), j.tag(), j.retryOf(), s.priority(), s.begin(), s.resumeArg(),
          s.resumeFrom(), s.cluster(), s.gpuNeed());
    }

    JobSpec spec() {
      return new JobSpec(List.of(), cwd == null ? null : cwd.intern(), Map.of(), gpus, name, group, key, after,
          retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
    }

    Job job(JobSpec s) {
      return new Job(id, s, JobState.WAITING, at, null, null, List.of(), null, null, null, null, tag, retryOf);
    }
  }

  /**
   * The snapshot of {@code l}. Its waiting jobs are made into records one at a time as they are
   * written: a queue of 200,000 jobs held them all at once, 17 MiB, while the snapshot was written.
   */
  public static LedgerSnapshot of(Ledger l) {
    List<Job> waiting = new ArrayList<>();
    List<Job> active = new ArrayList<>();
    for (Job j : l.live().values()) {
      if (j.state() == JobState.WAITING && !j.spec().hasCommand() && j.clusterId() == null) waiting.add(j);
      else active.add(j);
    }
    List<Waiting> records = new AbstractList<>() {
      @Override public Waiting get(int i) {
        return Waiting.of(waiting.get(i));
      }

      @Override public int size() {
        return waiting.size();
      }
    };
    return new LedgerSnapshot(l.nextId(), records, active, l.keys(), l.queueHeld(), l.holds(), l.autoHeld(), l.waits(),
        l.streaks(), l.recentEnds(), l.settings());
  }

  /** The ledger this snapshot holds; waiting jobs one after another with equal specs share one (those of a batch do). */
  public Ledger ledger() {
    Map<Long, Job> live = new LinkedHashMap<>();
    JobSpec shared = null;
    if (waiting != null) for (Waiting w : waiting) {
      JobSpec s = w.spec();
      if (s.equals(shared)) s = shared;
      else shared = s;
      live.put(w.id(), w.job(s));
    }
    if (active != null) for (Job j : active) live.put(j.id(), j);
    return new Ledger(nextId, live, keys == null ? Map.of() : keys, queueHeld, holds, autoHeld,
        waits == null ? Map.of() : waits, streaks == null ? Map.of() : streaks, recentEnds, settings);
  }
}

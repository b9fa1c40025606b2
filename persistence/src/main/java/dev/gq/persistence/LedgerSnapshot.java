package dev.gq.persistence;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.Prerequisite;
import dev.gq.core.ledger.QueueSettings;
import java.io.IOException;
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

  /**
   * Reads a snapshot's waiting job field by field: a snapshot of 100,000 waiting jobs is read at every
   * start, and Jackson's own way for a record (its creator's parameters gathered, each absent one
   * looked for) and its reading of each submit time took most of a start's work. The jobs of one
   * write share their submit time: it is read once. Fields it does not know are skipped, as the
   * snapshot's reader skips them; the nested values are read by Jackson as before.
   */
  static final class WaitingReader extends StdDeserializer<Waiting> {
    /** The last submit time read in this snapshot, its text and its value. */
    private record LastTime(String text, Instant at) {}

    private static final Object LAST_TIME = LastTime.class;

    public WaitingReader() {
      super(Waiting.class);
    }

    @Override
    public Waiting deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      long id = 0;
      int gpus = 0, retries = 0, priority = 0;
      String cwd = null, name = null, group = null, key = null, tag = null, resumeArg = null, resumeFrom = null, cluster = null;
      List<Dependency> after = null;
      Duration timeLimit = null;
      Instant at = null, begin = null;
      Long retryOf = null;
      GpuNeed gpuNeed = null;
      JsonToken t = p.currentToken() == JsonToken.START_OBJECT ? p.nextToken() : p.currentToken();
      for (; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_NULL) continue;
        switch (field) {
          case "id" -> id = p.getValueAsLong();
          case "cwd" -> cwd = p.getValueAsString();
          case "gpus" -> gpus = p.getValueAsInt();
          case "name" -> name = p.getValueAsString();
          case "group" -> group = p.getValueAsString();
          case "key" -> key = p.getValueAsString();
          case "after" -> after = ctxt.readValue(p, dependencies(ctxt));
          case "retries" -> retries = p.getValueAsInt();
          case "timeLimit" -> timeLimit = ctxt.readValue(p, Duration.class);
          case "at" -> at = submitTime(p, ctxt);
          case "tag" -> tag = p.getValueAsString();
          case "retryOf" -> retryOf = p.getValueAsLong();
          case "priority" -> priority = p.getValueAsInt();
          case "begin" -> begin = ctxt.readValue(p, Instant.class);
          case "resumeArg" -> resumeArg = p.getValueAsString();
          case "resumeFrom" -> resumeFrom = p.getValueAsString();
          case "cluster" -> cluster = p.getValueAsString();
          case "gpuNeed" -> gpuNeed = ctxt.readValue(p, GpuNeed.class);
          default -> p.skipChildren();
        }
      }
      return new Waiting(id, cwd, gpus, name, group, key, after, retries, timeLimit, at, tag, retryOf, priority, begin,
          resumeArg, resumeFrom, cluster, gpuNeed);
    }

    private static JavaType dependencies(DeserializationContext ctxt) {
      return ctxt.getTypeFactory().constructCollectionType(List.class, Dependency.class);
    }

    /** A submit time, read once for the run of jobs that share it (the context lasts one snapshot's reading). */
    private static Instant submitTime(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) return ctxt.readValue(p, Instant.class);
      String text = p.getText();
      if (ctxt.getAttribute(LAST_TIME) instanceof LastTime last && last.text().equals(text)) return last.at();
      Instant at = ctxt.readValue(p, Instant.class);
      ctxt.setAttribute(LAST_TIME, new LastTime(text, at));
      return at;
    }
  }
}

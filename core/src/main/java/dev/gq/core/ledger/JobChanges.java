package dev.gq.core.ledger;

import dev.gq.core.alloc.GpuFit;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.JobChanged;
import dev.gq.core.ledger.LedgerEvent.JobsHeld;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The user's changes to waiting jobs, as decisions: change a job's GPUs, priority, time limit or
 * environment;
 * move it to the front (the highest priority of the queue, plus one); hold jobs or release them.
 * Only a WAITING job can be changed: one already started keeps what it started with. Pure.
 */
public final class JobChanges {
  private JobChanges() {}

  /**
   * What to change; null fields stay as they are; {@code timeLimitSet} with a null limit removes it;
   * the variables of {@code envUnset} are removed from its environment, then those of {@code envSet} set.
   */
  public record Change(Integer gpus, Integer priority, boolean timeLimitSet, Duration timeLimit, Map<String, String> envSet,
      List<String> envUnset) {
    public Change {
      envSet = envSet == null ? Map.of() : Map.copyOf(envSet);
      envUnset = envUnset == null ? List.of() : List.copyOf(envUnset);
    }

    /** No change to the environment. */
    public Change(Integer gpus, Integer priority, boolean timeLimitSet, Duration timeLimit) {
      this(gpus, priority, timeLimitSet, timeLimit, Map.of(), List.of());
    }

    boolean empty() {
      return gpus == null && priority == null && !timeLimitSet && envSet.isEmpty() && envUnset.isEmpty();
    }
  }

  /** Variables gq sets itself when it launches a job: a change to them would be overwritten. */
  static final Set<String> SET_AT_LAUNCH = Set.of("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
      "GQ_JOB_ID", "GQ_GPU_UUIDS", "GQ_JOB_TAG", "GQ_GROUP", "GQ_KEY", "GQ_PROGRESS_FILE", "GQ_VRAM");

  /** Changes job {@code id}; {@code gpuCount} is how many GPUs the machine shows (-1: unknown). */
  public static Decision<String> change(Ledger l, long id, Change c, int gpuCount, Instant now) {
    return change(l, id, c, gpuCount, List.of(), now);
  }

  /**
   * As above; a new GPU count of a job that needs memory or a type is checked against {@code
   * devices}, the cards of the last good reading, as a submit is: refused when too few of them fit.
   */
  public static Decision<String> change(Ledger l, long id, Change c, int gpuCount,
      List<DeviceReading> devices, Instant now) {
    String bad = waitingHere(l, id);
    if (bad != null) return Decision.refuse(bad);
    if (c.empty())
      return Decision.refuse("nothing to change; give --gpus N, --priority N, --time DURATION, --no-time, --env NAME=VALUE or --unset-env NAME");
    for (String name : names(c)) {
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
        return Decision.refuse("'" + name + "' is not a variable name; use letters, digits and _, not starting with a digit");
      if (SET_AT_LAUNCH.contains(name)) return Decision.refuse(name + " is set by gq when the job starts; it cannot be changed");
    }
    if (c.gpus() != null && c.gpus() < 0) return Decision.refuse("--gpus must be 0 or more, not " + c.gpus());
    if (c.gpus() != null && c.gpus() > 0 && gpuCount >= 0 && c.gpus() > gpuCount)
      return Decision.refuse("this machine has " + gpuCount + " GPU(s) visible; ask for at most " + gpuCount);
    if (c.priority() != null) {
      String p = SpecRules.priority(c.priority());
      if (p != null) return Decision.refuse(p);
    }
    if (c.timeLimit() != null && c.timeLimit().compareTo(Durations.LONGEST) > 0)
      return Decision.refuse("--time must be at most " + Durations.days(Durations.LONGEST) + ", not " + Durations.format(c.timeLimit()));
    Job j = l.live().get(id);
    JobChanged e = new JobChanged(id, c.gpus(), c.priority(), c.timeLimitSet(), c.timeLimit(), c.envSet(), c.envUnset(), now);
    JobSpec after = JobTransitions.next(j, e).spec();
    if (c.gpus() != null && after.gpuNeed() != null) {
      String need = SpecRules.gpuNeed(after);
      if (need == null) need = GpuFit.refusal(after, devices);
      if (need != null) return Decision.refuse(need);
    }
    String env = c.envSet().isEmpty() && c.envUnset().isEmpty() ? ""
        : "; environment: " + (c.envUnset().isEmpty() ? "" : "removed " + String.join(", ", c.envUnset()))
            + (c.envUnset().isEmpty() || c.envSet().isEmpty() ? "" : ", ")
            + (c.envSet().isEmpty() ? "" : "set " + String.join(", ", new TreeSet<>(c.envSet().keySet())));
    return Decision.accept(List.of(e), "Job " + id + ": " + describe(after) + env + ".");
  }

  /** Gives job {@code id} the highest priority of the queue plus one (at most the maximum). */
  public static Decision<String> toFront(Ledger l, long id, Instant now) {
    String bad = waitingHere(l, id);
    if (bad != null) return Decision.refuse(bad);
    List<Job> waiting = l.waiting();
    if (!waiting.isEmpty() && waiting.get(0).id() == id) return Decision.accept(List.of(), "Job " + id + " is already first.");
    int top = waiting.stream().filter(j -> j.id() != id).mapToInt(j -> j.spec().priority()).max().orElse(0);
    if (top >= JobSpec.MAX_PRIORITY)
      return Decision.refuse("job " + id + " cannot go ahead of jobs of the highest priority (" + JobSpec.MAX_PRIORITY
          + "); lower theirs with 'gq modify JOB --priority N'");
    int p = Math.max(top + 1, l.live().get(id).spec().priority());
    return Decision.accept(List.of(new JobChanged(id, null, p, false, null, Map.of(), List.of(), now)),
        "Job " + id + " is first in the queue (priority " + p + ").");
  }

  /** Holds ({@code held}) or releases waiting jobs {@code ids}, all or none. */
  public static Decision<String> hold(Ledger l, List<Long> ids, boolean held, Instant now) {
    List<String> bad = new ArrayList<>();
    for (long id : ids) {
      String b = waitingOnly(l, id);
      if (b != null && (held || !l.settings().heldJobs().contains(id))) bad.add(b);
    }
    if (!bad.isEmpty()) return Decision.refuse(String.join("; ", bad));
    List<Long> change = ids.stream().distinct().filter(id -> l.settings().heldJobs().contains(id) != held).toList();
    String list = ids.stream().distinct().map(String::valueOf).collect(Collectors.joining(", "));
    boolean one = ids.stream().distinct().count() == 1;
    String jobs = (one ? "job " : "jobs ") + list;
    String line = held ? "Held " + jobs + "; 'gq release " + list.replace(", ", " ") + "' lets " + (one ? "it" : "them") + " start."
        : "Released " + jobs + ".";
    return Decision.accept(change.isEmpty() ? List.of() : List.of(new JobsHeld(change, held, now)), line);
  }

  private static List<String> names(Change c) {
    List<String> out = new ArrayList<>(c.envSet().keySet());
    out.addAll(c.envUnset());
    return out;
  }

  private static String waitingOnly(Ledger l, long id) {
    Job j = l.live().get(id);
    if (j == null) return "job " + id + " is not in the queue (only a waiting job can be changed; see 'gq ps')";
    if (j.state() != JobState.WAITING)
      return "job " + id + " is " + j.state() + "; only a waiting job can be changed (it keeps what it started with)";
    return null;
  }

  /** As {@link #waitingOnly}, and not a cluster job: Slurm keeps what it was sent with, and orders its own queue. */
  private static String waitingHere(Ledger l, long id) {
    String bad = waitingOnly(l, id);
    if (bad != null) return bad;
    if (l.live().get(id).spec().onCluster())
      return "job " + id + " waits on a Slurm cluster, which keeps what it was sent with and orders its own queue; 'gq cancel "
          + id + "' and submit it again changed ('gq hold " + id + "' and 'gq release " + id + "' work)";
    return null;
  }

  private static String describe(JobSpec s) {
    return s.gpus() + " GPU(s), priority " + s.priority() + ", "
        + (s.timeLimit() == null ? "no time limit" : "time limit " + Durations.format(s.timeLimit()));
  }
}

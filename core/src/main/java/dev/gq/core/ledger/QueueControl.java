package dev.gq.core.ledger;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The queue's settings: holding and releasing the whole queue or one group (their waiting jobs do
 * not start; running ones are untouched), capping a group's jobs at once, draining a GPU. Each
 * returns the events and the line to show the user. The whole queue's hold is stored as the events
 * {@code QueuePaused} and {@code QueueResumed}, their names from before the hold had its word. Pure.
 */
public final class QueueControl {
  private QueueControl() {}

  public static Decision<String> hold(Ledger l, String group, Instant now) {
    if (group != null) {
      String bad = SpecRules.label("group", group);
      if (bad != null) return Decision.refuse(bad + "; name the group to hold, as 'gq ps' shows it");
      if (l.holds().containsKey(group)) return Decision.accept(List.of(), "Group " + group + " was already held.");
      return Decision.accept(List.<LedgerEvent>of(new GroupHeld(group, "held by the user", false, now)),
          "Group " + group + " is held; its waiting jobs will not start until 'gq release --group " + group + "'.");
    }
    if (l.queueHeld()) return Decision.accept(List.of(), "The queue was already held.");
    String running = l.live().values().stream().filter(j -> j.state() != JobState.WAITING)
        .map(Job::id).map(String::valueOf).collect(Collectors.joining(", "));
    return Decision.accept(List.<LedgerEvent>of(new QueuePaused(now)),
        "Queue held; waiting jobs will not start until 'gq release --all'."
            + (running.isEmpty() ? "" : " Still running: " + running + "."));
  }

  public static Decision<String> release(Ledger l, String group, Instant now) {
    if (group != null) {
      String bad = SpecRules.label("group", group);
      if (bad != null) return Decision.refuse(bad + "; name the held group, as 'gq groups' shows it");
      if (!l.holds().containsKey(group)) return Decision.accept(List.of(), "Group " + group + " was not held.");
      return Decision.accept(List.<LedgerEvent>of(new GroupReleased(group, now)), "Released the hold on group " + group + ".");
    }
    if (!l.queueHeld()) return Decision.accept(List.of(), "The queue was not held.");
    return Decision.accept(List.<LedgerEvent>of(new QueueResumed(now)), "Released the hold on the queue.");
  }

  /** The most jobs of {@code group} active at once ({@code n} null: no cap). */
  public static Decision<String> limit(Ledger l, String group, Integer n, Instant now) {
    String bad = SpecRules.label("group", group);
    if (bad != null) return Decision.refuse(bad + "; name the group, as 'gq groups' shows it");
    if (n != null && maxRunningProblem(n) != null) return Decision.refuse(maxRunningProblem(n) + " (--no-max-running lifts the cap)");
    Integer was = l.settings().maxRunning().get(group);
    String line = n == null ? "Group " + group + ": no cap on its jobs at once." : "Group " + group + ": at most " + n
        + " of its jobs at once.";
    if (Objects.equals(was, n)) return Decision.accept(List.of(), line);
    return Decision.accept(List.<LedgerEvent>of(new GroupLimitSet(group, n, now)), line);
  }

  /**
   * Group {@code group}'s GPU jobs submitted from now on share their GPUs, at most {@code n} shared
   * jobs a GPU ({@code n} null: each job as it asks); jobs already queued keep what they asked.
   */
  public static Decision<String> perGpu(Ledger l, String group, Integer n, Instant now) {
    String bad = SpecRules.label("group", group);
    if (bad != null) return Decision.refuse(bad + "; name the group, as 'gq groups' shows it");
    if (n != null && (n < 1 || n > GpuNeed.MAX_PER_GPU))
      return Decision.refuse("--per-gpu must be from 1 to " + GpuNeed.MAX_PER_GPU + ", not " + n
          + " (--no-per-gpu lifts it)");
    Integer was = l.settings().perGpu().get(group);
    String line = n == null ? "Group " + group + ": its jobs submitted from now on share a GPU only when they ask (--share)."
        : "Group " + group + ": its GPU jobs submitted from now on share their GPUs, at most " + n + " a GPU.";
    if (Objects.equals(was, n)) return Decision.accept(List.of(), line);
    return Decision.accept(List.<LedgerEvent>of(new GroupPerGpuSet(group, n, now)), line);
  }

  /** Keeps GPU {@code uuid} (index {@code index}) from new jobs, or gives it back ({@code reason} null). */
  public static Decision<String> drain(Ledger l, String uuid, int index, String reason, Instant now) {
    boolean drained = l.settings().drained().containsKey(uuid);
    if (reason == null) {
      if (!drained) return Decision.accept(List.of(), "GPU " + index + " was not drained.");
      return Decision.accept(List.<LedgerEvent>of(new GpuResumed(uuid, now)), "GPU " + index + " takes new jobs again.");
    }
    String users = l.live().values().stream().filter(j -> j.state().holdsGpus() && j.gpus().stream().anyMatch(g -> g.uuid().equals(uuid)))
        .map(j -> "job " + j.id()).collect(Collectors.joining(", "));
    String line = "GPU " + index + " is drained: no new jobs on it" + (users.isEmpty() ? "" : "; " + users + " keeps running there")
        + "; 'gq gpu resume " + index + "' gives it back.";
    if (drained && reason.equals(l.settings().drained().get(uuid))) return Decision.accept(List.of(), line);
    return Decision.accept(List.<LedgerEvent>of(new GpuDrained(uuid, reason, now)), line);
  }

  /** Why {@code n} cannot be a group's cap (1 to {@link #MAX_RUNNING}), in one line; null when it can. */
  public static String maxRunningProblem(int n) {
    return n >= 1 && n <= MAX_RUNNING ? null : "--max-running must be between 1 and " + MAX_RUNNING + ", not " + n;
  }

  /** The highest cap a group may have. */
  public static final int MAX_RUNNING = 10_000;
}

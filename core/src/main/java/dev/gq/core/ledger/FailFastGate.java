package dev.gq.core.ledger;

import dev.gq.core.alloc.Allocator;
import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which waiting jobs may start now, so that fail-fast never lets a group fail more jobs than its
 * count before holding it. A group's jobs whose outcome is still open (STARTING: reserved but not
 * yet launched, a failed launch counting at once; or ending: their processes are gone but their end
 * is not recorded yet) may each still fail, so together with the group's current run of quick
 * failures they use up the rule's count: no further job of the group starts while they would reach
 * it. A group with nothing open always gets at least one job, so it never waits for nothing. Jobs
 * that already run do not count: a sweep's jobs start as fast as they launch. Pure; the Scheduler
 * places with it.
 */
public final class FailFastGate {
  private FailFastGate() {}

  /**
   * The allocator's plan for {@code l}'s waiting jobs, each group kept within its fail-fast budget:
   * a group the plan would start too many jobs of keeps only its first ones, its other jobs wait,
   * and the GPUs go to other jobs in a new plan (at most one more per group).
   */
  public static Plan plan(Ledger l, List<GpuStatus> gpus, FailFast rule, Set<Long> ending) {
    return plan(l, gpus, rule, ending, PlanRules.NONE);
  }

  /** As above, the allocator keeping {@code rules} too. */
  public static Plan plan(Ledger l, List<GpuStatus> gpus, FailFast rule, Set<Long> ending, PlanRules rules) {
    return plan(l, gpus, rule, ending, Map.of(), rules);
  }

  /** As above, the jobs of {@code waitingOut} (a reason each, besides the ledger's own) not placed. */
  public static Plan plan(Ledger l, List<GpuStatus> gpus, FailFast rule, Set<Long> ending,
      Map<Long, WaitReason> waitingOut, PlanRules rules) {
    List<Job> waiting = l.waiting();
    Map<Long, WaitReason> blocked = l.blocked();
    if (!waitingOut.isEmpty()) {
      blocked = new HashMap<>(blocked);
      for (var e : waitingOut.entrySet()) blocked.putIfAbsent(e.getKey(), e.getValue());
    }
    Plan first = Allocator.plan(waiting, gpus, blocked, rules);
    if (rule.off() || first.reservations().isEmpty()) return first;
    Map<Long, String> groupOf = new HashMap<>();
    waiting.forEach(j -> { if (j.spec().group() != null) groupOf.put(j.id(), j.spec().group()); });
    Map<String, Integer> open = open(l, ending);
    Map<String, Integer> budgets = new HashMap<>();
    Map<Long, WaitReason> gated = new HashMap<>(blocked);
    Plan plan = first;
    while (true) {
      Map<String, List<Long>> placed = new HashMap<>();
      for (Plan.Reservation p : plan.reservations()) {
        String g = groupOf.get(p.jobId());
        if (g != null) placed.computeIfAbsent(g, x -> new ArrayList<>()).add(p.jobId());
      }
      boolean over = false;
      for (Map.Entry<String, List<Long>> e : placed.entrySet()) {
        String g = e.getKey();
        int budget = budgets.computeIfAbsent(g, x -> budget(l, rule, x, open.getOrDefault(x, 0)));
        if (e.getValue().size() <= budget) continue;
        over = true;
        Set<Long> kept = Set.copyOf(e.getValue().subList(0, budget));
        WaitReason why = reason(g, open.getOrDefault(g, 0) + budget);
        for (Job j : waiting)
          if (g.equals(j.spec().group()) && !kept.contains(j.id()) && !gated.containsKey(j.id())) gated.put(j.id(), why);
      }
      if (!over) return withReasons(plan, first);
      plan = Allocator.plan(waiting, gpus, gated, rules);
    }
  }

  /** {@code plan}, where a job kept back that could not have started anyway still waits for that reason. */
  private static Plan withReasons(Plan plan, Plan first) {
    if (plan == first) return plan;
    Map<Long, WaitReason> reasons = new HashMap<>(plan.waitReasons());
    Set<Long> placed = new HashSet<>();
    plan.reservations().forEach(p -> placed.add(p.jobId()));
    first.waitReasons().forEach((id, why) -> { if (!placed.contains(id)) reasons.put(id, why); });
    return new Plan(plan.reservations(), reasons);
  }

  /** How many more of {@code group}'s jobs may start now (0 or more), {@code open} of its jobs being open. */
  static int budget(Ledger l, FailFast rule, String group, int open) {
    return Math.max(0, rule.count() - rule.quickFailures(l, group) - open);
  }

  /** Per group, its live jobs whose outcome is open: STARTING, or gone with their end not yet recorded. */
  static Map<String, Integer> open(Ledger l, Set<Long> ending) {
    Map<String, Integer> n = new HashMap<>();
    for (Job j : l.live().values()) {
      String g = j.spec().group();
      if (g != null && (j.state() == JobState.STARTING || ending.contains(j.id()))) n.merge(g, 1, Integer::sum);
    }
    return n;
  }

  private static WaitReason reason(String group, int open) {
    return new WaitReason.FailFastCheck(group, open);
  }
}

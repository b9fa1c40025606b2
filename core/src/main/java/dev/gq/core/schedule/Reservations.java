package dev.gq.core.schedule;

import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.FailFastGate;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reservations to make now (which waiting jobs start, on which GPUs): the allocator over the ledger and the registry's
 * classification, within each group's fail-fast budget and cap and the bound on CPU-only jobs; a
 * job in a run of failed starts waits out its back-off ({@link StartBackoff}); on a shared machine with a
 * policy, the GPUs kept for interactive work are left out and each start waits its fair turn ({@link FairPlan}).
 * Nothing is placed before start-up reconciliation is over. Pure.
 */
public final class Reservations {
  private Reservations() {}

  /** The plan: the reservations to make now, and why each waiting job that gets none waits. */
  public static Plan plan(Ledger l, SchedulerState s, DecisionContext c) {
    return plan(l, s, c, s.gpus().classified(l));
  }

  /** As above, on {@code classified}: the registry's classification of {@code l}, made already by the caller. */
  public static Plan plan(Ledger l, SchedulerState s, DecisionContext c, List<GpuStatus> classified) {
    if (!s.ready()) return new Plan(List.of(), Map.of());
    var latest = s.gpus().latest();
    String user = latest == null || latest.self() == null ? null : latest.self().user();
    List<GpuStatus> gpus = FairPlan.shared(classified, c.fair());
    long cpuActive = 0;
    Map<String, Integer> limits = l.settings().maxRunning();
    Map<String, Integer> groupRoom = new HashMap<>(limits);
    for (Job j : l.live().values()) {
      if (!j.state().active()) continue;
      if (j.spec().gpus() == 0) cpuActive++;
      String g = j.spec().group();
      if (g != null && groupRoom.containsKey(g)) groupRoom.merge(g, -1, Integer::sum);
    }
    int room = (int) Math.max(0, c.maxCpuJobs() - cpuActive);
    PlanRules rules = new PlanRules(c.now(), c.gatherAfter(), room, limits, groupRoom, l.settings().keptFor(), c.shareHeadroomMiB());
    var offered = BookedPlan.offered(c.fair(), user, c.now());
    if (offered != null) rules = rules.offering(offered);
    Plan plan = FailFastGate.plan(l, gpus, c.failFast(), s.ending(), s.backoff().waiting(c.now()), rules);
    plan = BookedPlan.booked(plan, gpus, l, c.fair(), user, c.now());
    return FairPlan.apply(plan, gpus, l, latest, c.fair(), c.now());
  }

  /**
   * Whether {@code events}, applied to {@code l}, may let a waiting job start: all but launches do,
   * and so does a write of no event.
   * A launch frees nothing a plan places on (its job held its GPUs and its CPU-only room since its
   * reservation); it ends a job's STARTING only, which counts for its group's fail-fast budget
   * ({@link FailFastGate}), so a launch in a group does when fail-fast is on. The plan a busy queue
   * would make again at each launch is left to the next write or reading.
   */
  public static boolean mayPlaceAfter(Ledger l, List<LedgerEvent> events, FailFast rule) {
    // no event: a reading, a job no longer ending, the end of start-up: the plan is asked for
    if (events.isEmpty()) return true;
    for (LedgerEvent e : events) {
      if (!(e instanceof LedgerEvent.JobLaunched launched)) return true;
      Job j = l.live().get(launched.jobId());
      if (j == null || (!rule.off() && j.spec().group() != null)) return true;
    }
    return false;
  }

  /**
   * One JobReserved per reservation of the plan. A plan is not made when it could place nothing:
   * it would give every waiting job its reason to wait, which only a view shows, and with a long
   * queue that is most of a write's work or a reading's ({@link #nothingToPlace}).
   */
  public static List<LedgerEvent> next(Ledger l, SchedulerState s, DecisionContext c) {
    if (!s.ready()) return List.of();
    List<GpuStatus> classified = s.gpus().classified(l);
    if (nothingToPlace(l, FairPlan.shared(classified, c.fair()), c.maxCpuJobs())) return List.of();
    return plan(l, s, c, classified).reservations().stream()
        .map(p -> (LedgerEvent) new LedgerEvent.JobReserved(p.jobId(), p.gpus(), c.now()))
        .toList();
  }

  /**
   * Whether a plan on {@code gpus} surely reserves nothing: every queued job that may start (not
   * kept by the held queue, a hold of its own or its group's, or a prerequisite) needs GPUs while
   * none is FREE or SHARED, or runs on the CPU alone while {@code maxCpuJobs} such jobs are active.
   * The allocator places a job only on a FREE or SHARED GPU, or a CPU-only one within that bound;
   * what else it weighs (--begin, group caps, fail-fast, fair turns) only takes reservations away.
   */
  static boolean nothingToPlace(Ledger l, List<GpuStatus> gpus, int maxCpuJobs) {
    if (l.queueHeld()) return true;
    boolean open = gpus != null && gpus.stream().anyMatch(g -> g.state() == GpuState.FREE || g.state() == GpuState.SHARED);
    Boolean cpuRoom = null;
    for (Job j : l.live().values()) {
      if (!QueueOrder.queued(j) || !l.mayStart(j)) continue;
      if (j.spec().gpus() > 0) {
        if (open) return false;
        continue;
      }
      if (cpuRoom == null) cpuRoom = l.live().values().stream().filter(a -> a.state().active() && a.spec().gpus() == 0).count() < maxCpuJobs;
      if (cpuRoom) return false;
    }
    return true;
  }
}

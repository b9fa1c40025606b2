package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The bounds a plan keeps besides the GPUs: the moment of the plan and how long the first job that
 * does not fit may be passed over before GPUs gather for it ({@code gatherAfter}), how many more
 * CPU-only jobs may start now ({@code cpuRoom}: the cap on CPU-only jobs at once less those active),
 * and each capped group's cap ({@code maxRunning}) with the room it leaves now ({@code groupRoom}:
 * the cap less the group's active jobs; a group without a cap is in neither), and the GPUs kept
 * for a named waiting job ({@code keptFor}: UUID → job id; a preemption freed them for it),
 * the memory kept free on every shared GPU beyond its jobs' declarations ({@code headroomMiB}), and
 * which GPUs are offered to which job ({@code offered}: another user's booking keeps a GPU from the
 * jobs whose {@code --time} does not end before its window; every GPU to every job unless set).
 */
public record PlanRules(Instant now, Duration gatherAfter, int cpuRoom, Map<String, Integer> maxRunning,
    Map<String, Integer> groupRoom, Map<String, Long> keptFor, long headroomMiB,
    BiPredicate<Job, GpuStatus> offered) {

  /** Every GPU is offered to every job (no booking keeps one from a job). */
  public static final BiPredicate<Job, GpuStatus> ALL = (j, g) -> true;

  /** The memory kept free on a shared GPU unless set (GQ_SHARE_HEADROOM): 1 GiB. */
  public static final long HEADROOM_MIB = 1024;

  /** How long the first job that does not fit waits before GPUs gather for it, unless set. */
  public static final Duration GATHER_AFTER = Duration.ofMinutes(5);

  /** No bounds: unbounded backfill, any number of CPU-only jobs at once, no group capped. */
  public static final PlanRules NONE = new PlanRules(Instant.MAX, GATHER_AFTER, Integer.MAX_VALUE, Map.of(), Map.of());

  public PlanRules {
    maxRunning = Map.copyOf(maxRunning);
    groupRoom = Map.copyOf(groupRoom);
    keptFor = keptFor == null ? Map.of() : Map.copyOf(keptFor);
    headroomMiB = Math.max(0, headroomMiB);
    offered = offered == null ? ALL : offered;
  }

  /** Every GPU offered to every job. */
  public PlanRules(Instant now, Duration gatherAfter, int cpuRoom, Map<String, Integer> maxRunning,
      Map<String, Integer> groupRoom, Map<String, Long> keptFor, long headroomMiB) {
    this(now, gatherAfter, cpuRoom, maxRunning, groupRoom, keptFor, headroomMiB, ALL);
  }

  /** With {@code filter} deciding which GPUs are offered to which job (a booking keeps some from some jobs). */
  public PlanRules offering(BiPredicate<Job, GpuStatus> filter) {
    return new PlanRules(now, gatherAfter, cpuRoom, maxRunning, groupRoom, keptFor, headroomMiB, filter);
  }

  /** The default headroom on shared GPUs. */
  public PlanRules(Instant now, Duration gatherAfter, int cpuRoom, Map<String, Integer> maxRunning,
      Map<String, Integer> groupRoom, Map<String, Long> keptFor) {
    this(now, gatherAfter, cpuRoom, maxRunning, groupRoom, keptFor, HEADROOM_MIB);
  }

  /** With {@code mib} kept free on every shared GPU. */
  public PlanRules withHeadroom(long mib) {
    return new PlanRules(now, gatherAfter, cpuRoom, maxRunning, groupRoom, keptFor, mib, offered);
  }

  /** No GPU kept for a job. */
  public PlanRules(Instant now, Duration gatherAfter, int cpuRoom, Map<String, Integer> maxRunning,
      Map<String, Integer> groupRoom) {
    this(now, gatherAfter, cpuRoom, maxRunning, groupRoom, Map.of());
  }

  /** No group capped. */
  public PlanRules(Instant now, Duration gatherAfter, int cpuRoom) {
    this(now, gatherAfter, cpuRoom, Map.of(), Map.of());
  }

  int maxRunning(String group) {
    return maxRunning.getOrDefault(group, 0);
  }
}

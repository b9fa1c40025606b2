package dev.gq.core.schedule;

import dev.gq.core.alloc.GpuFit;
import dev.gq.core.alloc.Plan;
import dev.gq.core.fair.FairTurn;
import dev.gq.core.fair.FairView;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The GPUs the fair turn is asked about for one reservation, and the words that name them. A job
 * the allocator put on GPUs still in another user's turn may take other FREE GPUs that fit it,
 * that no other reservation of the plan holds and whose turn has passed (a shared job keeps the
 * allocator's choice); a job that waits for the turn is told which free GPUs wait for another user
 * and for how long; and a job the allocator found no GPU for, because the GPUs went to a job that
 * then waited for the turn, is told the turn's reason. Pure.
 */
final class TurnGpus {
  private TurnGpus() {}

  /** The GPUs the turn may give reservation {@code r}'s job: its own, then the other FREE ones it fits, not in {@code taken}. */
  static List<FairTurn.FreeGpu> candidates(Plan.Reservation r, Job j, List<GpuStatus> gpus, Set<String> taken,
      BiPredicate<Job, GpuStatus> offered, FairView f, Instant now) {
    List<FairTurn.FreeGpu> out = new ArrayList<>();
    for (GpuSlot g : r.gpus()) out.add(free(g.uuid(), f, now));
    if (j == null || j.spec().shares() || gpus == null) return out;
    for (GpuStatus g : gpus) {
      if (g.state() != GpuState.FREE || taken.contains(g.uuid()) || !GpuFit.fits(j.spec(), g)) continue;
      if (offered != null && !offered.test(j, g)) continue;
      if (out.stream().noneMatch(x -> x.uuid().equals(g.uuid()))) out.add(free(g.uuid(), f, now));
    }
    return out;
  }

  private static FairTurn.FreeGpu free(String uuid, FairView f, Instant now) {
    return new FairTurn.FreeGpu(uuid, f.freeSince().getOrDefault(uuid, now));
  }

  /** Reservation {@code r} moved to the GPUs the turn gave it, lowest index first. */
  static Plan.Reservation onto(Plan.Reservation r, List<String> uuids, List<GpuStatus> gpus) {
    List<GpuSlot> slots = new ArrayList<>();
    for (String u : uuids) slots.add(new GpuSlot(u, index(u, r, gpus)));
    slots.sort(Comparator.comparingInt(GpuSlot::index));
    return new Plan.Reservation(r.jobId(), slots);
  }

  private static int index(String uuid, Plan.Reservation r, List<GpuStatus> gpus) {
    for (GpuSlot s : r.gpus()) if (s.uuid().equals(uuid)) return s.index();
    for (GpuStatus g : gpus) if (g.uuid().equals(uuid)) return g.index();
    return -1;
  }

  /** {@code reason} naming the free GPUs still in the turn: "...; GPU 1 is free and waits 20s more for another user's turn". */
  static WaitReason naming(WaitReason reason, List<FairTurn.FreeGpu> candidates, List<GpuStatus> gpus, Duration turn, Instant now) {
    List<WaitReason.TurnGpu> parts = new ArrayList<>();
    for (FairTurn.FreeGpu g : candidates) {
      Duration left = Duration.between(now, g.freeSince().plus(turn));
      if (left.isNegative() || left.isZero()) continue;
      parts.add(new WaitReason.TurnGpu(indexOf(g.uuid(), gpus), g.uuid(), (left.toMillis() + 999) / 1000));
    }
    return parts.isEmpty() ? reason : new WaitReason.InTurn(reason, parts);
  }

  /** The index of GPU {@code uuid} in {@code gpus}; null when it is not there. */
  private static Integer indexOf(String uuid, List<GpuStatus> gpus) {
    if (gpus != null) for (GpuStatus g : gpus) if (g.uuid().equals(uuid)) return g.index();
    return null;
  }

  /**
   * {@code reasons} with each GPU job that waited "GPUs busy" told the turn's reason instead when
   * the GPUs the turn left ({@code released}) would have been enough for it: the allocator had
   * given them to a job ahead of it, which then waited for the turn.
   */
  static void busyToTurn(Map<Long, WaitReason> reasons, Map<Long, Job> live, int released, WaitReason turn) {
    if (turn == null || released == 0) return;
    for (var e : reasons.entrySet()) {
      Job j = live.get(e.getKey());
      if (j == null || j.spec().gpus() == 0 || j.spec().gpus() > released || e.getValue().code() != WaitReason.Code.GPUS_BUSY) continue;
      e.setValue(turn);
    }
  }
}

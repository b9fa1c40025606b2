package dev.gq.core.schedule;

import dev.gq.core.alloc.Plan;
import dev.gq.core.fair.Booking;
import dev.gq.core.fair.BookingRules;
import dev.gq.core.fair.FairView;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The bookings' part of the plan: which GPUs each job is offered ({@link BookingRules#blocks}),
 * the wait reason of a job kept off a free booked GPU, and whose booking holds a GPU now (a GPU
 * booked by a user, in the window, counts as held by them for the policy's caps: a booking is
 * a claim the booker may fill at any moment). Pure.
 */
public final class BookedPlan {
  private BookedPlan() {}

  /**
   * Which GPUs are offered to which of {@code user}'s jobs: all but those another user's booking
   * keeps from it now (in the window; within the notice before it, unless the job's time limit
   * ends by the window's start). Null when nothing is booked.
   */
  public static BiPredicate<Job, GpuStatus> offered(FairView f, String user, Instant now) {
    if (f.bookings().isEmpty() || user == null) return null;
    return (j, g) -> blocks(f, g.uuid(), user, j, now) == null;
  }

  private static WaitReason.BookedGpu blocks(FairView f, String gpu, String user, Job j, Instant now) {
    return BookingRules.blocks(gpu, user, j.spec().timeLimit(), now, f.bookings(), f.policy().policy().bookingNotice(), f.zone());
  }

  /**
   * {@code plan} with the reason of each job that waits while a FREE GPU is booked away from it
   * saying so: "booked", the allocator's words, then the booking's.
   */
  public static Plan booked(Plan plan, List<GpuStatus> gpus, Ledger l, FairView f, String user, Instant now) {
    if (f.bookings().isEmpty() || user == null || gpus == null) return plan;
    Map<Long, WaitReason> reasons = new HashMap<>(plan.waitReasons());
    for (var e : plan.waitReasons().entrySet()) {
      Job j = l.live().get(e.getKey());
      if (j == null || j.spec().gpus() == 0 || !busy(e.getValue())) continue;
      for (GpuStatus g : gpus) {
        if (g.state() != GpuState.FREE) continue;
        WaitReason.BookedGpu b = blocks(f, g.uuid(), user, j, now);
        if (b == null) continue;
        reasons.put(j.id(), new WaitReason.Booked(e.getValue(), g.index(), b));
        break;
      }
    }
    return new Plan(plan.reservations(), reasons);
  }

  /** Whether {@code r} says the job waits for busy GPUs (all of them, or those that fit it). */
  private static boolean busy(WaitReason r) {
    return r.code() == WaitReason.Code.GPUS_BUSY || r.code() == WaitReason.Code.FITTING_GPUS_BUSY;
  }

  /** The booking in {@code f} that holds {@code gpu} at {@code now} (its window has begun); null when none does. */
  static Booking bookingNow(FairView f, String gpu, Instant now) {
    for (Booking b : f.bookings())
      if (b.gpus().contains(gpu) && !now.isBefore(b.start()) && b.end().isAfter(now)) return b;
    return null;
  }

  /** Whether every GPU of {@code r} is booked by {@code uid} now: the booker takes them without a turn. */
  static boolean ownBooked(Plan.Reservation r, FairView f, int uid, Instant now) {
    return !r.gpus().isEmpty() && r.gpus().stream().allMatch(g -> {
      Booking b = bookingNow(f, g.uuid(), now);
      return b != null && b.uid() == uid;
    });
  }
}

package dev.gq.core.fair;

import dev.gq.core.job.DayTime;
import dev.gq.core.job.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine policy's bounds on one booking, per user: it books no GPU kept for interactive work;
 * it starts at most {@code max_booking_ahead} after it is made; it lasts at most
 * {@code max_booking_length} (and at most {@code max_time_on_shared}, the longest a job may run);
 * and at no instant of its window do its booker's bookings together hold more GPUs than
 * {@code max_gpus_per_user} ({@link Policy#maxGpusBooked}): a booking is a claim on GPUs while
 * others may wait, so the limit that applies while others wait is the one it is held to. Pure.
 */
final class BookingLimits {
  private BookingLimits() {}

  /** Why {@code b}, made at {@code now} beside {@code others}, breaks {@code policy}; null when it does not. */
  static String refusal(Booking b, List<Booking> others, Policy policy, Instant now, ZoneId zone) {
    for (String g : b.gpus())
      if (policy.interactiveGpus().contains(g))
        return "GPU " + g + " is kept for interactive work on this machine and cannot be booked; book other GPUs";
    Instant latest = now.plus(policy.maxBookingAhead());
    if (b.start().isAfter(latest))
      return "a booking may start at most " + Durations.format(policy.maxBookingAhead()) + " ahead on this machine"
          + " (max_booking_ahead), by " + DayTime.of(latest, now, zone) + "; choose an earlier --at";
    String tooLong = length(b, policy);
    if (tooLong != null) return tooLong;
    return perUser(b, others, policy, now, zone);
  }

  private static String length(Booking b, Policy policy) {
    Duration length = Duration.between(b.start(), b.end());
    boolean jobsShorter = policy.maxTimeOnShared() != null && policy.maxTimeOnShared().compareTo(policy.maxBookingLength()) < 0;
    Duration max = jobsShorter ? policy.maxTimeOnShared() : policy.maxBookingLength();
    if (length.compareTo(max) <= 0) return null;
    return "a booking may last at most " + Durations.format(max) + " on this machine ("
        + (jobsShorter ? "max_time_on_shared" : "max_booking_length") + "); shorten --for";
  }

  /** Whether, at some instant of {@code b}'s window, its booker would have more GPUs booked than the policy lets one user hold. */
  private static String perUser(Booking b, List<Booking> others, Policy policy, Instant now, ZoneId zone) {
    int cap = policy.maxGpusBooked();
    if (b.gpus().size() > cap)
      return "this machine lets one user book at most " + cap + " GPUs at a time (" + policy.maxGpusBookedKey() + "); book "
          + cap + " or fewer";
    List<Booking> mine = new ArrayList<>();
    for (Booking o : others) if (o.uid() == b.uid() && !o.id().equals(b.id()) && o.overlaps(b.start(), b.end())) mine.add(o);
    List<Instant> moments = new ArrayList<>(List.of(b.start()));
    for (Booking o : mine) if (o.start().isAfter(b.start())) moments.add(o.start());
    for (Instant t : moments) {
      int n = b.gpus().size();
      for (Booking o : mine) if (!o.start().isAfter(t) && o.end().isAfter(t)) n += o.gpus().size();
      if (n > cap)
        return b.user() + " would have " + n + " GPUs booked at once from " + DayTime.of(t, now, zone) + ", and this machine lets"
            + " one user book at most " + cap + " at a time (" + policy.maxGpusBookedKey() + "); book fewer GPUs or another time"
            + " (gq book --list)";
    }
    return null;
  }
}

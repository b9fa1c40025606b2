package dev.gq.core.fair;

import dev.gq.core.job.Durations;
import dev.gq.core.job.WaitReason;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of booked GPUs. A booking is refused (one line) when its window has ended or is
 * empty, when it books a GPU kept for interactive work, more GPUs than the policy lets one user
 * hold, or a window longer than the policy's longest time, and when it overlaps another booking
 * of one of its GPUs. Before a booking's window any user's job may start on a booked GPU only if
 * its {@code --time} ends by the window's start; during the window only the booker's jobs (and
 * interactive work, which gq does not place) may; the booker's jobs may always. A job already
 * running is never stopped: the rule only decides starts. Readers trust no file blindly: a
 * booking that breaks the policy, or overlaps one made earlier, is not in force. Pure.
 */
public final class BookingRules {
  private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("EEE HH:mm", java.util.Locale.ROOT);

  private BookingRules() {}

  /**
   * Why {@code b} cannot be made beside {@code others} (those in force) under {@code policy} (its
   * interactive GPUs {@link Policy#resolved} to UUIDs) at {@code now}; null when it can.
   */
  public static String refusal(Booking b, List<Booking> others, Policy policy, Instant now, ZoneId zone) {
    if (!b.end().isAfter(b.start())) return "a booking needs a window: --for must be more than 0";
    if (!b.end().isAfter(now)) return "the window " + window(b, zone) + " has already ended; choose a later --at";
    for (String g : b.gpus())
      if (policy.interactiveGpus().contains(g))
        return "GPU " + g + " is kept for interactive work on this machine and cannot be booked; book other GPUs";
    if (b.gpus().size() > policy.maxGpusPerUserAlways())
      return "this machine lets one user hold at most " + policy.maxGpusPerUserAlways()
          + " GPUs (max_gpus_per_user_always); book " + policy.maxGpusPerUserAlways() + " or fewer";
    Duration length = Duration.between(b.start(), b.end());
    if (policy.maxTimeOnShared() != null && length.compareTo(policy.maxTimeOnShared()) > 0)
      return "a booking may last at most " + Durations.format(policy.maxTimeOnShared())
          + " on this machine (max_time_on_shared); shorten --for";
    for (Booking o : others)
      for (String g : b.gpus())
        if (o.gpus().contains(g) && o.overlaps(b.start(), b.end()))
          return "GPU " + g + " is booked by " + o.user() + " " + window(o, zone) + "; choose other GPUs or another time (gq book --list)";
    return null;
  }

  /**
   * {@code count} of the {@code shared} GPUs (in their order) that no booking in {@code others}
   * holds in [{@code start}, {@code end}), or fewer when not enough are.
   */
  public static List<String> choose(int count, List<String> shared, List<Booking> others, Instant start, Instant end) {
    List<String> out = new ArrayList<>();
    for (String g : shared) {
      if (out.size() == count) break;
      if (others.stream().noneMatch(o -> o.gpus().contains(g) && o.overlaps(start, end))) out.add(g);
    }
    return out;
  }

  /**
   * The bookings that count at {@code now}: not ended, within {@code policy}, and of two that
   * overlap on a GPU the one made first (then the smaller id). A file written by hand that breaks
   * these rules blocks nobody.
   */
  public static List<Booking> inForce(List<Booking> read, Policy policy, Instant now) {
    List<Booking> sorted = new ArrayList<>(read);
    sorted.sort(Comparator.comparing(Booking::made).thenComparing(Booking::id));
    List<Booking> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Booking b : sorted) {
      if (!b.end().isAfter(now) || !ids.add(b.id())) continue;
      if (refusal(b, out, policy, b.made(), ZoneId.of("UTC")) == null) out.add(b);
    }
    return out;
  }

  /**
   * Why a job of {@code user}'s, asking for {@code time} (null: no {@code --time}), may not start
   * on {@code gpu} at {@code now} because of a booking in {@code bookings} (in force); null when it
   * may. The booker's own jobs may always.
   */
  public static WaitReason blocks(String gpu, String user, Duration time, Instant now, List<Booking> bookings, ZoneId zone) {
    for (Booking b : bookings) {
      if (!b.gpus().contains(gpu) || b.user().equals(user) || !b.end().isAfter(now)) continue;
      if (!now.isBefore(b.start()))
        return new WaitReason("booked", "GPU " + gpu + " is booked by " + b.user() + " " + window(b, zone)
            + "; only " + b.user() + "'s jobs start on it until then");
      Instant ends = time == null ? null : dev.gq.core.job.TimeLimits.deadline(now, time);
      if (ends == null || ends.isAfter(b.start()))
        return new WaitReason("booked", "GPU " + gpu + " is booked by " + b.user() + " " + window(b, zone) + "; a job starts on it before "
            + HOUR.withZone(zone).format(b.start()) + " only with a --time that ends by then"
            + (time == null ? " (this job has no --time)" : ""));
    }
    return null;
  }

  /** Why the booking {@code b}, read from a file owned by {@code fileOwnerUid}, is ignored; null when it is not. */
  public static String ignored(Booking b, int fileOwnerUid) {
    return b.uid() == fileOwnerUid ? null : "it claims uid " + b.uid() + " but belongs to uid " + fileOwnerUid;
  }

  /** Whether {@code uid} may cancel {@code b}: only its booker (the file is theirs in the sticky directory). */
  public static boolean mayCancel(Booking b, int uid) {
    return b.uid() == uid;
  }

  /** "from Tue 14:00 to Tue 17:00". */
  public static String window(Booking b, ZoneId zone) {
    DateTimeFormatter f = HOUR.withZone(zone);
    return "from " + f.format(b.start()) + " to " + f.format(b.end());
  }
}

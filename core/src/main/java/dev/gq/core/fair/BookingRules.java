package dev.gq.core.fair;

import dev.gq.core.job.DayTime;
import dev.gq.core.job.WaitReason;
import java.time.Duration;
import java.time.Instant;
import dev.gq.core.job.TimeLimits;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of booked GPUs. A booking is refused (one line) when its window has ended or is
 * empty, when it breaks the policy's bounds ({@link BookingLimits}: interactive GPUs, how far
 * ahead, how long, how many GPUs one user may have booked at once), and when it overlaps another
 * booking of one of its GPUs. Before a booking's window, and only within the policy's
 * {@code booking_notice} of its start, another user's job may start on a booked GPU only if its
 * time limit ({@code --time}, or the policy's {@code max_time_on_shared} given at submit) ends by
 * the start; earlier, every job starts as usual. During the window only the booker's jobs (and
 * interactive work, which gq does not place) may; the booker's jobs may always. A job already
 * running is never stopped: the rule only decides starts. Readers trust no file blindly: a booking
 * that breaks the rules, overlaps one made earlier, or that an admin cancelled is not in force,
 * and each such file is named with why. Pure.
 */
public final class BookingRules {
  private BookingRules() {}

  /**
   * Why {@code b} cannot be made beside {@code others} (those in force) under {@code policy} (its
   * interactive GPUs {@link Policy#resolved} to UUIDs) at {@code now}; null when it can.
   */
  public static String refusal(Booking b, List<Booking> others, Policy policy, Instant now, ZoneId zone) {
    if (!b.end().isAfter(b.start())) return "a booking needs a window: --for must be more than 0";
    if (!b.end().isAfter(now)) return "the window " + window(b, now, zone) + " has already ended; choose a later --at";
    String limit = BookingLimits.refusal(b, others, policy, now, zone);
    if (limit != null) return limit;
    for (Booking o : others)
      for (String g : b.gpus())
        if (!o.id().equals(b.id()) && o.gpus().contains(g) && o.overlaps(b.start(), b.end()))
          return "GPU " + g + " is booked by " + o.user() + " " + window(o, now, zone)
              + "; choose other GPUs or another time (gq book --list)";
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

  /** The bookings that count, and booking file name → why for each that does not. */
  public record Sorting(List<Booking> inForce, Map<String, String> notCounted) {}

  /**
   * The bookings that count at {@code now}: not ended, not cancelled by an admin ({@code cancelled}:
   * booking id → the admin's line), within {@code policy} when their file was written (so the limits
   * of how far ahead and how long are checked against that moment), and of two that overlap on a
   * GPU, or that together exceed their booker's cap, the one made first (then the smaller id). A
   * file written by hand that breaks these rules blocks nobody.
   */
  public static Sorting sort(List<Booking> read, Map<String, String> cancelled, Policy policy, Instant now) {
    List<Booking> sorted = new ArrayList<>(read);
    sorted.sort(Comparator.comparing(Booking::made).thenComparing(Booking::id));
    List<Booking> out = new ArrayList<>();
    Map<String, String> notCounted = new LinkedHashMap<>();
    Set<String> ids = new HashSet<>();
    for (Booking b : sorted) {
      if (!b.end().isAfter(now) || !ids.add(b.id())) continue;
      String why = cancelled.containsKey(b.id()) ? cancelled.get(b.id()) : refusal(b, out, policy, b.made(), ZoneOffset.UTC);
      if (why == null) out.add(b);
      else notCounted.put(b.fileName(), why);
    }
    return new Sorting(out, notCounted);
  }

  /** The bookings that count at {@code now} ({@link #sort}, nothing cancelled). */
  public static List<Booking> inForce(List<Booking> read, Policy policy, Instant now) {
    return sort(read, Map.of(), policy, now).inForce();
  }

  /**
   * Why a job of {@code user}'s with time limit {@code time} (null: none) may not start on
   * {@code gpu} at {@code now} because of a booking in {@code bookings} (in force), whose GPUs are
   * kept from other users' jobs for {@code notice} before the window; null when it may. The
   * booker's own jobs may always.
   */
  public static WaitReason.BookedGpu blocks(String gpu, String user, Duration time, Instant now, List<Booking> bookings, Duration notice,
      ZoneId zone) {
    for (Booking b : bookings) {
      if (!b.gpus().contains(gpu) || b.user().equals(user) || !b.end().isAfter(now)) continue;
      if (!now.isBefore(b.start())) return new WaitReason.BookedGpu(gpu, b.user(), b.start(), b.end(), notice, time == null, now, zone);
      if (now.isBefore(b.start().minus(notice))) continue;
      Instant ends = time == null ? null : TimeLimits.deadline(now, time);
      if (ends == null || ends.isAfter(b.start()))
        return new WaitReason.BookedGpu(gpu, b.user(), b.start(), b.end(), notice, time == null, now, zone);
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

  /** "from Tue 14:00 to Tue 17:00", with dates for days beyond this week ({@link DayTime}). */
  public static String window(Booking b, Instant now, ZoneId zone) {
    return DayTime.window(b.start(), b.end(), now, zone);
  }
}

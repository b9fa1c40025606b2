package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.DayTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's bookings held to the machine policy: GPUs at once per user, how far ahead, how long, and how their times read. */
class BookingPolicyTest {
  static final ZoneId UTC = ZoneId.of("UTC");
  static final Instant NOW = Instant.parse("2026-03-01T03:30:00Z"); // a Sunday
  static final Instant AT_14 = Instant.parse("2026-03-01T14:00:00Z");

  private static Booking alice(String id, Instant start, Duration length, String... gpus) {
    return new Booking(id, "alice", 1000, List.of(gpus), start, start.plus(length), NOW);
  }

  private static Policy policy(Map<String, Object> keys) {
    return Policy.from(keys, "/etc/gq/policy.toml");
  }

  @Test
  void oneUserCannotBookMoreGpusAtOnceThanTheCapWhileOthersWait() {
    Policy cap2 = policy(Map.of("max_gpus_per_user", 2));
    String three = BookingRules.refusal(alice("a001", AT_14, Duration.ofHours(3), "GPU-0", "GPU-1", "GPU-2"), List.of(), cap2, NOW, UTC);
    assertEquals("this machine lets one user book at most 2 GPUs at a time (max_gpus_per_user); book 2 or fewer", three);
    Booking two = alice("a001", AT_14, Duration.ofHours(3), "GPU-0", "GPU-1");
    assertNull(BookingRules.refusal(two, List.of(), cap2, NOW, UTC));
    Booking third = alice("a002", AT_14.plus(Duration.ofHours(2)), Duration.ofHours(3), "GPU-2");
    assertEquals("alice would have 3 GPUs booked at once from Sun 16:00, and this machine lets one user book at most 2 at a time"
        + " (max_gpus_per_user); book fewer GPUs or another time (gq book --list)", BookingRules.refusal(third, List.of(two), cap2, NOW, UTC));
    Booking after = alice("a003", two.end(), Duration.ofHours(3), "GPU-2", "GPU-3");
    assertNull(BookingRules.refusal(after, List.of(two), cap2, NOW, UTC), "back to back is never more than 2 at once");
  }

  @Test
  void chainedOneGpuBookingsStopAtTheCapAndTheLastHandWrittenFilesDoNotCount() {
    Policy p = policy(Map.of("max_gpus_per_user", 1, "max_gpus_per_user_always", 1, "max_time_on_shared", "1d"));
    List<Booking> files = new ArrayList<>();
    List<Booking> accepted = new ArrayList<>();
    for (int day = 0; day < 2; day++)
      for (int gpu = 0; gpu < 4; gpu++) {
        Booking b = alice("a" + day + "0" + gpu, AT_14.plus(Duration.ofDays(day)), Duration.ofDays(1), "GPU-" + gpu);
        files.add(b);
        if (BookingRules.refusal(b, accepted, p, NOW, UTC) == null) accepted.add(b);
      }
    assertEquals(List.of("a000", "a100"), accepted.stream().map(Booking::id).toList(), "one GPU at a time, day after day");
    assertEquals(accepted, BookingRules.inForce(files, p, NOW), "files written by hand are held to the same rules");
  }

  @Test
  void aWindowPastTheLimitsIsRefusedWithThePolicySilentOrAbsent() {
    Booking farAway = alice("a001", Instant.parse("9999-12-31T00:00:00Z"), Duration.ofHours(1), "GPU-0");
    String why = BookingRules.refusal(farAway, List.of(), Policy.NONE, NOW, UTC);
    assertEquals("a booking may start at most 7d ahead on this machine (max_booking_ahead), by 2026-03-08 03:30;"
        + " choose an earlier --at", why);
    assertTrue(BookingRules.inForce(List.of(farAway), Policy.NONE, NOW).isEmpty(), "a hand-written file far ahead counts for nothing");
    Booking twoDays = alice("a002", AT_14, Duration.ofDays(2), "GPU-0");
    assertEquals("a booking may last at most 1d on this machine (max_booking_length); shorten --for",
        BookingRules.refusal(twoDays, List.of(), Policy.NONE, NOW, UTC));
    Policy longer = policy(Map.of("max_booking_ahead", "30d", "max_booking_length", "3d", "max_time_on_shared", "2d"));
    assertEquals("a booking may last at most 2d on this machine (max_time_on_shared); shorten --for",
        BookingRules.refusal(alice("a003", AT_14, Duration.ofDays(3), "GPU-0"), List.of(), longer, NOW, UTC));
    assertNull(BookingRules.refusal(alice("a004", AT_14.plus(Duration.ofDays(20)), Duration.ofDays(2), "GPU-0"), List.of(), longer, NOW, UTC));
  }

  @Test
  void aBookingBeyondThisWeekIsShownWithItsDate() {
    Policy month = policy(Map.of("max_booking_ahead", "30d"));
    Booking bob = new Booking("b001", "bob", 1001, List.of("GPU-0"), AT_14.plus(Duration.ofDays(9)),
        AT_14.plus(Duration.ofDays(9)).plus(Duration.ofHours(3)), NOW);
    assertEquals("GPU GPU-0 is booked by bob from 2026-03-10 14:00 to 2026-03-10 17:00; choose other GPUs or another time (gq book --list)",
        BookingRules.refusal(alice("a001", bob.start(), Duration.ofHours(1), "GPU-0"), List.of(bob), month, NOW, UTC));
    assertEquals("Sat 14:00", DayTime.of(AT_14.plus(Duration.ofDays(6)), NOW, UTC), "six days ahead is this week");
    assertEquals("2026-03-08 14:00", DayTime.of(AT_14.plus(Duration.ofDays(7)), NOW, UTC), "the same weekday next week is not");
    assertEquals("9999-12-31 00:00", DayTime.of(Instant.parse("9999-12-31T00:00:00Z"), NOW, UTC));
    assertEquals("10000-01-01 00:00", DayTime.of(Instant.parse("+10000-01-01T00:00:00Z"), NOW, UTC), "a year as a year");
  }
}

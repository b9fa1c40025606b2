package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Booked GPUs: making a booking, which jobs may start on a booked GPU, and the booking file. */
class BookingRulesTest {
  static final ZoneId UTC = ZoneId.of("UTC");
  static final Instant NOW = Instant.parse("2026-03-02T09:00:00Z"); // a Monday
  static final Instant AT_14 = Instant.parse("2026-03-02T14:00:00Z");
  static final Duration NOTICE = Duration.ofHours(6);
  static final Booking BOB = new Booking("b0b1", "bob", 1001, List.of("GPU-0", "GPU-1"), AT_14, AT_14.plus(Duration.ofHours(3)), NOW);

  @Test
  void beforeTheWindowAJobMayRunOnlyIfItsTimeEndsByTheStart() {
    assertNull(BookingRules.blocks("GPU-0", "alice", Duration.ofHours(5), NOW, List.of(BOB), NOTICE, UTC));
    var noTime = BookingRules.blocks("GPU-0", "alice", null, NOW, List.of(BOB), NOTICE, UTC);
    assertEquals("GPU GPU-0 is booked by bob from Mon 14:00 to Mon 17:00; from 6h before, a job starts on it only with a"
        + " --time that ends by Mon 14:00 (this job has no --time)", noTime.text());
    assertEquals("booked", noTime.brief());
    assertNotNull(BookingRules.blocks("GPU-0", "alice", Duration.ofHours(5).plusSeconds(1), NOW, List.of(BOB), NOTICE, UTC));
    assertNull(BookingRules.blocks("GPU-2", "alice", null, NOW, List.of(BOB), NOTICE, UTC), "GPU-2 is not booked");
  }

  @Test
  void duringTheWindowOnlyTheBookersJobsStart() {
    Instant at15 = AT_14.plus(Duration.ofHours(1));
    assertEquals("GPU GPU-1 is booked by bob from Mon 14:00 to Mon 17:00; only bob's jobs start on it until then",
        BookingRules.blocks("GPU-1", "alice", Duration.ofMinutes(1), at15, List.of(BOB), NOTICE, UTC).text());
    assertNull(BookingRules.blocks("GPU-1", "bob", null, at15, List.of(BOB), NOTICE, UTC));
    assertNull(BookingRules.blocks("GPU-1", "bob", null, NOW, List.of(BOB), NOTICE, UTC), "the booker's jobs may start before too");
    assertNull(BookingRules.blocks("GPU-1", "alice", null, BOB.end(), List.of(BOB), NOTICE, UTC), "the window is over");
  }

  @Test
  void aBookingIsRefusedWhenItOverlapsAnotherOrBreaksThePolicy() {
    Policy p = new Policy(2, 3, List.of("GPU-7"), Duration.ofHours(4), Set.of(), null);
    Booking mine = new Booking("a11c", "alice", 1000, List.of("GPU-1", "GPU-2"), AT_14.plus(Duration.ofHours(2)), AT_14.plus(Duration.ofHours(4)), NOW);
    assertEquals("GPU GPU-1 is booked by bob from Mon 14:00 to Mon 17:00; choose other GPUs or another time (gq book --list)",
        BookingRules.refusal(mine, List.of(BOB), p, NOW, UTC));
    Booking after = new Booking("a11c", "alice", 1000, List.of("GPU-1"), BOB.end(), BOB.end().plusSeconds(60), NOW);
    assertNull(BookingRules.refusal(after, List.of(BOB), p, NOW, UTC), "back to back is no overlap");
    assertTrue(BookingRules.refusal(withGpus(after, "GPU-7"), List.of(), p, NOW, UTC).contains("kept for interactive work"));
    assertTrue(BookingRules.refusal(withGpus(after, "GPU-1", "GPU-2", "GPU-3", "GPU-4"), List.of(), p, NOW, UTC)
        .contains("at most 2 GPUs at a time (max_gpus_per_user)"));
    Booking long5h = new Booking("a11c", "alice", 1000, List.of("GPU-3"), AT_14, AT_14.plus(Duration.ofHours(5)), NOW);
    assertTrue(BookingRules.refusal(long5h, List.of(), p, NOW, UTC).contains("at most 4h"));
    assertTrue(BookingRules.refusal(after, List.of(), p, after.end(), UTC).contains("has already ended"));
  }

  @Test
  void choosingGpusSkipsThoseBookedInTheWindow() {
    assertEquals(List.of("GPU-2", "GPU-3"), BookingRules.choose(2, List.of("GPU-0", "GPU-1", "GPU-2", "GPU-3"), List.of(BOB),
        AT_14.plus(Duration.ofHours(1)), AT_14.plus(Duration.ofHours(2))));
    assertEquals(List.of("GPU-0", "GPU-1"), BookingRules.choose(2, List.of("GPU-0", "GPU-1", "GPU-2"), List.of(BOB), NOW, AT_14));
  }

  @Test
  void aHandWrittenBookingThatBreaksTheRulesBlocksNobody() {
    Booking forever = new Booking("e111", "eve", 1002, List.of("GPU-0", "GPU-1", "GPU-2", "GPU-3"), NOW, NOW.plus(Duration.ofDays(300)), NOW);
    Booking overlapLater = new Booking("e222", "eve", 1002, List.of("GPU-0"), AT_14, AT_14.plusSeconds(60), NOW.plusSeconds(1));
    Policy p = new Policy(2, 2, List.of(), Duration.ofDays(1), Set.of(), null);
    assertEquals(List.of(BOB), BookingRules.inForce(List.of(forever, overlapLater, BOB), p, NOW));
    Booking ended = new Booking("e333", "eve", 1002, List.of("GPU-3"), NOW.minusSeconds(60), NOW, NOW.minusSeconds(120));
    assertEquals(List.of(BOB), BookingRules.inForce(List.of(ended, BOB), p, NOW));
  }

  @Test
  void theFileRoundTripsAndOnlyItsOwnerMayCancelOrSpeakForIt() {
    assertEquals(Optional.of(BOB), Booking.parse(BOB.text()));
    assertEquals("booking-b0b1.booking", BOB.fileName());
    assertTrue(Booking.isBookingFile(BOB.fileName()));
    assertTrue(Booking.parse(BOB.text().replace("gpus=GPU-0,GPU-1", "gpus=GPU-0,GPU-0")).isEmpty(), "a GPU twice");
    assertTrue(Booking.parse(BOB.text().replace("end=2026-03-02T17", "end=2026-03-02T13")).isEmpty(), "ends before it starts");
    assertTrue(Booking.parse(BOB.text() + "x=1\n").isEmpty());
    assertTrue(BookingRules.mayCancel(BOB, 1001));
    assertFalse(BookingRules.mayCancel(BOB, 1000));
    assertNull(BookingRules.ignored(BOB, 1001));
    assertEquals("it claims uid 1001 but belongs to uid 1000", BookingRules.ignored(BOB, 1000));
  }

  private static Booking withGpus(Booking b, String... gpus) {
    return new Booking(b.id(), b.user(), b.uid(), List.of(gpus), b.start(), b.end(), b.made());
  }
}

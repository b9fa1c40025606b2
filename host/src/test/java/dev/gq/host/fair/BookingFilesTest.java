package dev.gq.host.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.fair.Booking;
import dev.gq.core.fair.BookingRules;
import dev.gq.core.fair.Policy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Booking files in a lease directory: made, refused, listed and cancelled. */
class BookingFilesTest {
  // files carry the kernel's change time: the bookings lie ahead of the real clock
  static final Instant NOW = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  static final Instant AT_14 = NOW.plus(Duration.ofHours(5));
  static final ZoneId UTC = ZoneId.of("UTC");
  @TempDir Path dir;
  int me;
  BookingFiles files;

  @BeforeEach
  void setUp() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    me = (Integer) Files.getAttribute(dir, "unix:uid");
    files = new BookingFiles(dir);
  }

  private Booking booking(String id, String user, Instant start, Duration length, String... gpus) {
    return new Booking(id, user, me, List.of(gpus), start, start.plus(length), NOW);
  }

  @Test
  void aBookingIsWrittenListedAndCancelledByItsOwner() throws IOException {
    String id = BookingFiles.newId();
    Booking b = booking(id, "alice", AT_14, Duration.ofHours(3), "GPU-0", "GPU-1");
    assertNull(files.book(b, Policy.NONE, NOW, UTC));
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(b.fileName()))));
    assertEquals(List.of(id), files.read().inForce(Policy.NONE, NOW).stream().map(Booking::id).toList());
    assertEquals("no booking zzzz; list them with gq book --list", files.cancel("zzzz", me));
    assertEquals("booking " + id + " is alice's; only alice, root or an admin (admins in /etc/gq/policy.toml) can cancel it", files.cancel(id, me + 1));
    assertNull(files.cancel(id, me));
    assertEquals(List.of(), files.read().bookings());
  }

  @Test
  void anOverlappingBookingIsRefusedAndNotWritten() {
    assertNull(files.book(booking("aaaa", "alice", AT_14, Duration.ofHours(3), "GPU-0"), Policy.NONE, NOW, UTC));
    String why = files.book(booking("bbbb", "bob", AT_14.plus(Duration.ofHours(1)), Duration.ofHours(1), "GPU-0"), Policy.NONE, NOW, UTC);
    assertEquals("GPU GPU-0 is booked by alice " + BookingRules.window(files.read().bookings().get(0), NOW, UTC)
        + "; choose other GPUs or another time (gq book --list)", why);
    assertEquals(1, files.read().bookings().size());
  }

  @Test
  void aHandWrittenBookingCannotClaimToBeOlderThanItsFile() throws IOException {
    assertNull(files.book(booking("aaaa", "alice", AT_14, Duration.ofHours(3), "GPU-0"), Policy.NONE, NOW, UTC));
    Booking backdated = new Booking("eeee", "eve", me, List.of("GPU-0"), AT_14, AT_14.plusSeconds(3600), NOW.minus(Duration.ofDays(30)));
    Files.writeString(dir.resolve(backdated.fileName()), backdated.text());
    assertEquals(List.of("aaaa"), files.read().inForce(Policy.NONE, NOW).stream().map(Booking::id).toList());
  }

  @Test
  void aFileWhoseNameIsNotItsIdOrThatIsNotABookingIsIgnored() throws IOException {
    Booking b = booking("cccc", "alice", AT_14, Duration.ofHours(1), "GPU-0");
    Files.writeString(dir.resolve("booking-dddd.booking"), b.text());
    Files.writeString(dir.resolve("booking-eeee.booking"), "rm -rf /\n");
    var r = files.read();
    assertEquals(List.of(), r.bookings());
    assertEquals("its name is not its id's", r.ignored().get("booking-dddd.booking"));
    assertEquals("not a gq-booking 1 file", r.ignored().get("booking-eeee.booking"));
  }
}

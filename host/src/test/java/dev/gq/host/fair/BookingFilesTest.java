package dev.gq.host.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.fair.Booking;
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
  static final Instant NOW = Instant.parse("2026-03-02T09:00:00Z");
  static final Instant AT_14 = Instant.parse("2026-03-02T14:00:00Z");
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
    assertEquals(List.of(b), files.read().inForce(Policy.NONE, NOW));
    assertEquals("no booking zzzz; list them with gq book --list", files.cancel("zzzz", me));
    assertEquals("booking " + id + " is alice's; only alice (or root) can cancel it", files.cancel(id, me + 1));
    assertNull(files.cancel(id, me));
    assertEquals(List.of(), files.read().bookings());
  }

  @Test
  void anOverlappingBookingIsRefusedAndNotWritten() {
    assertNull(files.book(booking("aaaa", "alice", AT_14, Duration.ofHours(3), "GPU-0"), Policy.NONE, NOW, UTC));
    String why = files.book(booking("bbbb", "bob", AT_14.plus(Duration.ofHours(1)), Duration.ofHours(1), "GPU-0"), Policy.NONE, NOW, UTC);
    assertEquals("GPU GPU-0 is booked by alice from Mon 14:00 to Mon 17:00; choose other GPUs or another time (gq book --list)", why);
    assertEquals(1, files.read().bookings().size());
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

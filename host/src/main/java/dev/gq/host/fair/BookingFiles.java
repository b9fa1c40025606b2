package dev.gq.host.fair;

import dev.gq.core.fair.Booking;
import dev.gq.core.fair.BookingRules;
import dev.gq.core.fair.Policy;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bookings in the shared lease directory, one file per booking. Booking writes the file only
 * when {@link BookingRules#refusal} allows it among those in force, then reads the directory again:
 * when another user's overlapping booking made at the same moment stands instead
 * ({@link BookingRules#inForce} keeps the one made first), it removes its own and refuses, so two
 * users booking at once never both hold a GPU. Cancelling removes only the user's own file.
 */
public final class BookingFiles {
  private final Path dir;

  public BookingFiles(Path leaseDir) {
    this.dir = leaseDir.toAbsolutePath();
  }

  /** A new booking id: 8 random lower-case hex digits. */
  public static String newId() {
    return HexFormat.of().formatHex(PublishedFiles.randomBytes(4));
  }

  /** The bookings read (their owner the uid they claim), and name → why for each file ignored. */
  public record Reading(List<Booking> bookings, Map<String, String> ignored) {
    public List<Booking> inForce(Policy policy, Instant now) {
      return BookingRules.inForce(bookings, policy, now);
    }

    /** Those in force and why each other booking file is not, with the bookings an admin cancelled (id → line). */
    public BookingRules.Sorting sort(Map<String, String> cancelled, Policy policy, Instant now) {
      return BookingRules.sort(bookings, cancelled, policy, now);
    }
  }

  public Reading read() {
    Map<String, String> ignored = new LinkedHashMap<>();
    List<Booking> out = new ArrayList<>();
    for (PublishedFiles.Read f : PublishedFiles.readAll(dir, Booking::isBookingFile, Booking.MAX_BYTES, ignored)) {
      Optional<Booking> b = Booking.parse(f.text());
      String why = b.isEmpty() ? "not a gq-booking 1 file"
          : !f.name().equals(b.get().fileName()) ? "its name is not its id's" : BookingRules.ignored(b.get(), f.ownerUid());
      if (why != null) ignored.put(f.name(), why);
      else out.add(madeWhenWritten(b.get(), f.changed()));
    }
    return new Reading(out, ignored);
  }

  /**
   * {@code b} as made when its file was written, by the file's change time rather than the time
   * it states: the earlier of two overlapping bookings stands, and a file written by hand cannot
   * claim to be older than it is.
   */
  private static Booking madeWhenWritten(Booking b, Instant changed) {
    return new Booking(b.id(), b.user(), b.uid(), b.gpus(), b.start(), b.end(), changed);
  }

  /** Books {@code b} (made now, by its uid); the one line that says why not, or null when it is in force. */
  public String book(Booking b, Policy policy, Instant now, ZoneId zone) {
    String refused = BookingRules.refusal(b, read().inForce(policy, now), policy, now, zone);
    if (refused != null) return refused;
    String failed = PublishedFiles.write(dir, b.fileName(), b.text());
    if (failed != null) return failed;
    List<Booking> after = read().inForce(policy, now);
    if (after.stream().anyMatch(o -> o.id().equals(b.id()) && o.uid() == b.uid())) return null;
    PublishedFiles.removeOwn(dir, b.fileName(), b.uid());
    String why = BookingRules.refusal(b, after, policy, now, zone);
    return why != null ? why : "the booking could not be kept; list the bookings (gq book --list) and try again";
  }

  /** The booking {@code id} as read, whoever made it; empty when there is no such file. */
  public Optional<Booking> find(String id) {
    return read().bookings().stream().filter(o -> o.id().equals(id)).findFirst();
  }

  /**
   * Cancels the booking {@code id} of {@code uid}'s (root's gq: anyone's, as the sticky directory
   * lets root remove any file); the one line that says why not, or null.
   */
  public String cancel(String id, int uid) {
    Optional<Booking> b = find(id);
    if (b.isEmpty()) return "no booking " + id + "; list them with gq book --list";
    if (uid == 0) return PublishedFiles.removeOwn(dir, b.get().fileName(), PublishedFiles.ownerOf(dir, b.get().fileName()));
    if (!BookingRules.mayCancel(b.get(), uid))
      return "booking " + id + " is " + b.get().user() + "'s; only " + b.get().user() + ", root or an admin (admins in"
          + " /etc/gq/policy.toml) can cancel it";
    return PublishedFiles.removeOwn(dir, b.get().fileName(), uid);
  }
}

package dev.gq.core.fair;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GPUs booked by one user for a window, machine-wide ({@code gq book -g 2 --at 14:00 --for 3h}):
 * its id (what {@code gq book --cancel} takes), the booker's name and uid, the GPUs by UUID, the
 * window [start, end) and when it was made (the earlier of two overlapping bookings stands, see
 * {@link BookingRules#inForce}). One file per booking in the lease directory, a few
 * {@code key=value} lines after a {@code gq-booking 1} header.
 */
public record Booking(String id, String user, int uid, List<String> gpus, Instant start, Instant end, Instant made) {

  public static final String HEADER = "gq-booking 1";
  public static final String SUFFIX = ".booking";
  public static final int MAX_BYTES = 8192;

  public Booking {
    gpus = List.copyOf(gpus);
  }

  /** The file name of this booking. */
  public String fileName() {
    return "booking-" + id + SUFFIX;
  }

  /** Whether {@code name} is a booking file's name (the only files the readers open). */
  public static boolean isBookingFile(String name) {
    return name.matches("booking-[0-9a-z]{4,16}\\.booking");
  }

  /** Whether the window overlaps [{@code from}, {@code to}). */
  public boolean overlaps(Instant from, Instant to) {
    return start.isBefore(to) && from.isBefore(end);
  }

  public String text() {
    return HEADER + "\nid=" + id + "\nuser=" + user + "\nuid=" + uid + "\ngpus=" + String.join(",", gpus)
        + "\nstart=" + start + "\nend=" + end + "\nmade=" + made + "\n";
  }

  /** The booking {@code text} states, or empty when it is not a whole, sound booking file. */
  public static Optional<Booking> parse(String text) {
    if (text == null || !text.startsWith(HEADER + "\n") || !text.endsWith("\n")) return Optional.empty();
    Map<String, String> kv = new HashMap<>();
    for (String line : text.substring(HEADER.length() + 1).split("\n")) {
      int eq = line.indexOf('=');
      if (eq < 1 || kv.put(line.substring(0, eq), line.substring(eq + 1)) != null) return Optional.empty();
    }
    try {
      if (kv.size() != 7 || !kv.get("id").matches("[0-9a-z]{4,16}") || !kv.get("uid").matches("\\d{1,10}")
          || !kv.get("user").matches("[A-Za-z0-9_.-][A-Za-z0-9_.$-]{0,31}")
          || !kv.get("gpus").matches("[A-Za-z0-9/_.-]{1,128}(,[A-Za-z0-9/_.-]{1,128}){0,63}")) return Optional.empty();
      Booking b = new Booking(kv.get("id"), kv.get("user"), Integer.parseInt(kv.get("uid")),
          List.of(kv.get("gpus").split(",")), Instant.parse(kv.get("start")), Instant.parse(kv.get("end")),
          Instant.parse(kv.get("made")));
      return b.end().isAfter(b.start()) && b.gpus().stream().distinct().count() == b.gpus().size() ? Optional.of(b) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}

package dev.gq.core.fair;

import dev.gq.core.job.Durations;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.Suggestions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The machine policy every user's gq follows on a shared machine, from the root-owned
 * {@code /etc/gq/policy.toml}: how many GPUs one user may hold while another user waits
 * ({@code maxGpusPerUser}) and at any time ({@code maxGpusPerUserAlways}), the GPUs kept for
 * interactive work (indices or UUIDs, never given to queued jobs), the longest {@code --time} a job
 * may ask for on the shared GPUs, who counts as an admin, how long a fair turn lasts
 * ({@link FairTurn}), and the bounds of a booking: how far ahead it may start, how long it may last,
 * and how long before its start it keeps its GPUs from other users' jobs ({@link BookingRules};
 * these three have defaults, with or without a file). {@link #NONE} (no file) is gq's behaviour without a policy. {@link #from}
 * reads the parsed file; an unknown key, a wrong type or a bad value is an
 * {@link IllegalArgumentException} with the one line to show. Pure.
 */
public record Policy(int maxGpusPerUser, int maxGpusPerUserAlways, List<String> interactiveGpus,
    Duration maxTimeOnShared, Set<String> admins, Duration fairTurn, Duration maxBookingAhead, Duration maxBookingLength,
    Duration bookingNotice) {

  /** No limit on GPUs per user. */
  public static final int UNLIMITED = Integer.MAX_VALUE;
  /** How long a GPU is left for a waiting user before an over-share user may take it, unless set. */
  public static final Duration DEFAULT_FAIR_TURN = Duration.ofSeconds(30);
  public static final Duration SHORTEST_FAIR_TURN = Duration.ofSeconds(5);
  public static final Duration LONGEST_FAIR_TURN = Duration.ofMinutes(10);
  /** How far ahead a booking may start, how long it may last, and its notice, unless set. */
  public static final Duration DEFAULT_BOOKING_AHEAD = Duration.ofDays(7);
  public static final Duration DEFAULT_BOOKING_LENGTH = Duration.ofDays(1);
  public static final Duration DEFAULT_BOOKING_NOTICE = Duration.ofHours(2);
  public static final Policy NONE = new Policy(UNLIMITED, UNLIMITED, List.of(), null, Set.of(), DEFAULT_FAIR_TURN);

  static final List<String> KEYS = List.of("max_gpus_per_user", "max_gpus_per_user_always", "interactive_gpus",
      "max_time_on_shared", "admins", "fair_turn", "max_booking_ahead", "max_booking_length", "booking_notice");

  public Policy {
    interactiveGpus = List.copyOf(interactiveGpus);
    admins = Set.copyOf(admins);
    fairTurn = fairTurn == null ? DEFAULT_FAIR_TURN : fairTurn;
    maxBookingAhead = maxBookingAhead == null ? DEFAULT_BOOKING_AHEAD : maxBookingAhead;
    maxBookingLength = maxBookingLength == null ? DEFAULT_BOOKING_LENGTH : maxBookingLength;
    bookingNotice = bookingNotice == null ? DEFAULT_BOOKING_NOTICE : bookingNotice;
  }

  /** A policy with the default bounds of a booking. */
  public Policy(int maxGpusPerUser, int maxGpusPerUserAlways, List<String> interactiveGpus, Duration maxTimeOnShared,
      Set<String> admins, Duration fairTurn) {
    this(maxGpusPerUser, maxGpusPerUserAlways, interactiveGpus, maxTimeOnShared, admins, fairTurn, null, null, null);
  }

  /** The most GPUs one user may have booked at any instant: {@code max_gpus_per_user} (never above the always-limit). */
  public int maxGpusBooked() {
    return Math.min(maxGpusPerUser, maxGpusPerUserAlways);
  }

  /** The key that sets {@link #maxGpusBooked}. */
  public String maxGpusBookedKey() {
    return maxGpusPerUser <= maxGpusPerUserAlways ? "max_gpus_per_user" : "max_gpus_per_user_always";
  }

  /** Whether the GPU with {@code index} and {@code uuid} is kept for interactive work. */
  public boolean interactive(int index, String uuid) {
    return interactiveGpus.contains(Integer.toString(index)) || interactiveGpus.contains(uuid);
  }

  /**
   * This policy with the interactive GPUs named by index replaced by their UUIDs on this machine
   * ({@code uuidByIndex}, from a GPU reading), so that rules over UUIDs (bookings) see them; an
   * index the machine does not have is kept as it is and matches nothing.
   */
  public Policy resolved(Map<Integer, String> uuidByIndex) {
    List<String> gpus = interactiveGpus.stream()
        .map(g -> g.matches("\\d+") ? uuidByIndex.getOrDefault(Integer.parseInt(g), g) : g).toList();
    return new Policy(maxGpusPerUser, maxGpusPerUserAlways, gpus, maxTimeOnShared, admins, fairTurn, maxBookingAhead,
        maxBookingLength, bookingNotice);
  }

  public boolean admin(String user) {
    return admins.contains(user);
  }

  /**
   * Why a job asking for {@code time} ({@code null}: no {@code --time}) may not run on the shared
   * GPUs, in one line; null when it may. A job without {@code --time} may: it runs at most
   * {@link #limitFor} (the policy's longest time).
   */
  public String timeRefusal(Duration time) {
    if (maxTimeOnShared == null || time == null || time.compareTo(maxTimeOnShared) <= 0) return null;
    return "--time " + Durations.format(time) + " is longer than this machine's policy allows on shared GPUs ("
        + Durations.format(maxTimeOnShared) + ", max_time_on_shared in /etc/gq/policy.toml); ask for --time "
        + Durations.format(maxTimeOnShared) + " or less";
  }

  /** The time limit a job asking for {@code time} runs under: its own, else the policy's longest; null: none. */
  public Duration limitFor(Duration time) {
    return time != null ? time : maxTimeOnShared;
  }

  /** The policy in {@code doc} (the file's keys as parsed TOML); {@code file} names it in messages. */
  public static Policy from(Map<String, Object> doc, String file) {
    int perUser = UNLIMITED, always = UNLIMITED;
    List<String> interactive = List.of();
    Duration longest = null, turn = DEFAULT_FAIR_TURN, ahead = null, length = null, notice = null;
    Set<String> admins = Set.of();
    for (Map.Entry<String, Object> e : doc.entrySet()) {
      String key = e.getKey();
      Object v = e.getValue();
      switch (key) {
        case "max_gpus_per_user" -> perUser = count(v, key, file);
        case "max_gpus_per_user_always" -> always = count(v, key, file);
        case "interactive_gpus" -> interactive = gpus(v, file);
        case "max_time_on_shared" -> longest = duration(v, key, file, Durations.LONGEST);
        case "fair_turn" -> {
          turn = duration(v, key, file, LONGEST_FAIR_TURN);
          if (turn.compareTo(SHORTEST_FAIR_TURN) < 0) throw bad(file, key, "at least 5s, e.g. \"30s\"");
        }
        case "admins" -> admins = users(v, file);
        case "max_booking_ahead" -> ahead = duration(v, key, file, Duration.ofDays(365));
        case "max_booking_length" -> length = duration(v, key, file, Duration.ofDays(365));
        case "booking_notice" -> notice = duration(v, key, file, Duration.ofDays(30));
        default -> throw unknown(file, key);
      }
    }
    if (perUser != UNLIMITED && perUser > always)
      throw new IllegalArgumentException(file + ": max_gpus_per_user (" + perUser + ") is more than max_gpus_per_user_always ("
          + always + "), so it would never apply; lower it or raise max_gpus_per_user_always");
    return new Policy(perUser, always, interactive, longest, admins, turn, ahead, length, notice);
  }

  private static int count(Object v, String key, String file) {
    if (!(v instanceof Integer || v instanceof Long)) throw bad(file, key, "a whole number of GPUs without quotes, e.g. 2");
    long n = ((Number) v).longValue();
    if (n < 1 || n > 4096) throw bad(file, key, "between 1 and 4096, not " + n);
    return (int) n;
  }

  private static List<String> gpus(Object v, String file) {
    String want = "a list of GPU indices or UUIDs, e.g. [0, 1] or [\"GPU-5d3c...\"]";
    if (!(v instanceof List<?> list)) throw bad(file, "interactive_gpus", want);
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      if (o instanceof Integer || o instanceof Long) {
        long i = ((Number) o).longValue();
        if (i < 0 || i > 4095) throw bad(file, "interactive_gpus", "indices from 0 to 4095, not " + i);
        out.add(Long.toString(i));
      } else if (o instanceof String s && s.matches("(GPU|MIG)-[A-Za-z0-9/_.-]{1,120}")) {
        out.add(s);
      } else {
        throw bad(file, "interactive_gpus", want + ", not " + shown(o));
      }
    }
    return out;
  }

  private static Duration duration(Object v, String key, String file, Duration max) {
    if (!(v instanceof String s)) throw bad(file, key, "a duration in quotes, e.g. \"3d\" or \"12h\"");
    Duration d = Durations.parse(s);
    if (d == null) throw bad(file, key, "a duration such as \"30m\", \"12h\" or \"3d\", not " + shown(s));
    if (d.compareTo(max) > 0) throw bad(file, key, "at most " + Durations.format(max) + ", not " + shown(s));
    return d;
  }

  private static Set<String> users(Object v, String file) {
    if (!(v instanceof List<?> list)) throw bad(file, "admins", "a list of user names, e.g. [\"alice\"]");
    Set<String> out = new LinkedHashSet<>();
    for (Object o : list) {
      if (!(o instanceof String s) || !s.matches("[a-z_][a-z0-9_.-]{0,31}\\$?"))
        throw bad(file, "admins", "a list of login names (lower-case letters, digits, '_', '-', '.'), not " + shown(o));
      out.add(s);
    }
    return out;
  }

  private static String shown(Object o) {
    return o instanceof String s ? "'" + PrintableText.escape(s) + "'" : String.valueOf(o instanceof Map ? "a table" : o);
  }

  private static IllegalArgumentException unknown(String file, String key) {
    List<String> near = Suggestions.closest(key, KEYS);
    String hint = near.isEmpty() ? "the file takes " + String.join(", ", KEYS) : "did you mean " + near.get(0) + "?";
    return new IllegalArgumentException(file + ": unknown key " + PrintableText.escape(key) + "; " + hint);
  }

  private static IllegalArgumentException bad(String file, String key, String want) {
    return new IllegalArgumentException(file + ": " + key + " must be " + want + "; fix it (as root) and gq re-reads it");
  }
}

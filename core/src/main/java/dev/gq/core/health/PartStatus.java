package dev.gq.core.health;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * How one part of the daemon (the GPU watcher, the history, the reconciler, the notifier, the
 * cluster bridge, the GPU timeline) is doing, as {@code gq daemon status} shows it: its state, when it last did its
 * work ({@code work} names a unit of it: "reading", "update", "pass"; null {@code lastWork}: not
 * yet), and while it is not OK, why ({@code problem}, one line) and since when. {@code restarts}
 * counts the restarts after failures since the daemon started.
 */
public record PartStatus(String part, State state, String work, Instant lastWork, String problem, Instant since,
    int restarts) {

  public enum State {
    /** Doing its work. */
    OK,
    /** Running, but its last unit of work failed; it tries again by itself. */
    FAILING,
    /** It failed and is being started again after a back-off. */
    RESTARTING,
    /** It failed for good; the daemon stops, unless the part is one it can do without (the GPU timeline). */
    STOPPED
  }

  /** The line for {@code gq daemon status}, ages counted to {@code now}. */
  public String line(Instant now) {
    String last = lastWork == null ? "no " + work + " yet" : "last " + work + " " + ago(lastWork, now);
    String restarted = restarts == 0 ? "" : ", restarted " + restarts + (restarts == 1 ? " time" : " times");
    return switch (state) {
      case OK -> part + ": ok, " + last + restarted;
      case FAILING -> part + ": failing for " + age(since, now) + " (" + problem + "), " + last + restarted;
      case RESTARTING -> part + ": restarting after failure (" + problem + "), " + last + restarted;
      case STOPPED -> part + ": stopped after failure (" + problem + ")";
    };
  }

  /** "0.4 s ago", "12 s ago", "3 min ago", "2 h ago". */
  static String ago(Instant then, Instant now) {
    return age(then, now) + " ago";
  }

  static String age(Instant then, Instant now) {
    Duration d = Duration.between(then, now);
    if (d.isNegative()) d = Duration.ZERO;
    long ms = d.toMillis();
    if (ms < 10_000) return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    if (ms < 120_000) return ms / 1000 + " s";
    if (ms < 7_200_000) return ms / 60_000 + " min";
    return ms / 3_600_000 + " h";
  }
}

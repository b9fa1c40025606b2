package dev.gq.core.alloc;

import java.time.Duration;
import java.time.Instant;

/** How a job's start time ({@code --begin}) reads in a wait reason: "in 25m", "in 3h10m". Pure. */
final class Begin {
  private Begin() {}

  static String brief(Instant begin, Instant now) {
    long s = Math.max(0, Duration.between(now, begin).toSeconds());
    if (s < 60) return "in " + s + "s";
    if (s < 3600) return "in " + (s + 59) / 60 + "m";
    long h = s / 3600, m = (s % 3600) / 60;
    if (h < 48) return "in " + h + "h" + (m == 0 ? "" : m + "m");
    return "in " + h / 24 + "d";
  }
}

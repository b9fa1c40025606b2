package dev.gq.actors.fair;

import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.job.Durations;
import java.util.ArrayList;
import java.util.List;

/** The machine policy in one line, as {@code gq who}, {@code gq daemon status} and the daemon's log show it. */
final class PolicyLines {
  private PolicyLines() {}

  /** The policy in force, or why none is. */
  static String line(PolicyReading r) {
    if (r.policy() == Policy.NONE && r.problem() == null) return "none (first come, first served)";
    if (r.policy() == Policy.NONE) return r.problem();
    String p = describe(r.policy());
    return r.problem() == null ? p : p + " (" + r.problem() + ")";
  }

  /**
   * "at most 2 GPUs per user while others wait; ...; --time at most 3d; fair turn 30s; bookings at most
   * 7d ahead and 1d long, GPUs kept 2h before; admins alice".
   */
  static String describe(Policy p) {
    List<String> parts = new ArrayList<>();
    if (p.maxGpusPerUser() != Policy.UNLIMITED) parts.add("at most " + p.maxGpusPerUser() + " GPUs per user while others wait");
    if (p.maxGpusPerUserAlways() != Policy.UNLIMITED) parts.add("at most " + p.maxGpusPerUserAlways() + " GPUs per user always");
    if (!p.interactiveGpus().isEmpty()) parts.add("interactive GPUs " + String.join(", ", p.interactiveGpus()));
    if (p.maxTimeOnShared() != null) parts.add("--time at most " + Durations.format(p.maxTimeOnShared()));
    parts.add("fair turn " + Durations.format(p.fairTurn()));
    parts.add("bookings at most " + Durations.format(p.maxBookingAhead()) + " ahead and " + Durations.format(p.maxBookingLength())
        + " long, GPUs kept " + Durations.format(p.bookingNotice()) + " before");
    if (!p.admins().isEmpty()) parts.add("admins " + String.join(", ", p.admins().stream().sorted().toList()));
    return String.join("; ", parts);
  }
}

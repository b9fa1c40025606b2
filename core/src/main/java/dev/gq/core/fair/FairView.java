package dev.gq.core.fair;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * What this daemon last read of the shared machine besides its GPUs: the policy reading (the
 * policy in force, or the line why the file is not used), the demand files that count (this
 * daemon's own left out: its live state is newer), those that do not with why, and since when
 * each GPU has been seen free (by UUID; a GPU not in the map counts as free from now), the bookings in
 * force and the zone their windows are told in, and the GPUs an admin drained for every user's gq
 * (UUID → the line that says by whom and why, {@link AdminOrder}). Read on
 * each GPU reading and handed to the plan as it is. {@link #NONE}: no policy, nobody else: gq
 * behaves as on a machine of its own.
 */
public record FairView(PolicyReading policy, List<Demand> demands, Map<String, String> ignored,
    Map<String, Instant> freeSince, List<Booking> bookings, ZoneId zone, Map<String, String> machineDrains) {

  public static final FairView NONE = new FairView(PolicyReading.ABSENT, List.of(), Map.of(), Map.of());

  public FairView {
    policy = policy == null ? PolicyReading.ABSENT : policy;
    demands = List.copyOf(demands);
    ignored = Map.copyOf(ignored);
    freeSince = Map.copyOf(freeSince);
    bookings = bookings == null ? List.of() : List.copyOf(bookings);
    zone = zone == null ? ZoneOffset.UTC : zone;
    machineDrains = machineDrains == null ? Map.of() : Map.copyOf(machineDrains);
  }

  /** No machine-wide drains. */
  public FairView(PolicyReading policy, List<Demand> demands, Map<String, String> ignored, Map<String, Instant> freeSince,
      List<Booking> bookings, ZoneId zone) {
    this(policy, demands, ignored, freeSince, bookings, zone, null);
  }

  /** No bookings. */
  public FairView(PolicyReading policy, List<Demand> demands, Map<String, String> ignored, Map<String, Instant> freeSince) {
    this(policy, demands, ignored, freeSince, List.of(), null, null);
  }

  /** Whether fair turns and the policy's limits apply: a policy file is in force. */
  public boolean active() {
    return policy.policy() != Policy.NONE;
  }
}

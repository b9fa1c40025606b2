package dev.gq.actors.health;

import dev.gq.core.health.PartStatus;
import dev.gq.core.health.PartStatus.State;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What each supervised part of the daemon last did: the parts beat after each unit of work
 * ({@link #beat}), the supervision records failures and restarts, and {@code gq daemon status}
 * reads {@link #status}. The Scheduler is not listed: requests show whether it works. Thread-safe.
 */
public final class PartHealth {
  private final Clock clock;
  private final Map<Part, PartStatus> parts = new EnumMap<>(Part.class);

  public PartHealth(Clock clock) {
    this.clock = clock;
    for (Part p : Part.values())
      if (p.restartable()) parts.put(p, new PartStatus(p.text(), State.OK, p.work(), null, null, null, 0));
  }

  /** The beat of {@code part}. */
  public Beat beat(Part part) {
    return new Beat() {
      @Override public void worked() {
        PartHealth.this.worked(part);
      }

      @Override public void failing(String why) {
        PartHealth.this.failing(part, why);
      }
    };
  }

  synchronized void worked(Part part) {
    PartStatus s = parts.get(part);
    if (s == null) return;
    parts.put(part, new PartStatus(s.part(), State.OK, s.work(), clock.instant(), null, null, s.restarts()));
  }

  synchronized void failing(Part part, String why) {
    PartStatus s = parts.get(part);
    if (s == null) return;
    Instant since = s.state() == State.FAILING ? s.since() : clock.instant();
    parts.put(part, new PartStatus(s.part(), State.FAILING, s.work(), s.lastWork(), why, since, s.restarts()));
  }

  /** {@code part} failed for {@code why} and is being started again. */
  synchronized void restarting(Part part, String why) {
    PartStatus s = parts.get(part);
    if (s == null) return;
    parts.put(part, new PartStatus(s.part(), State.RESTARTING, s.work(), s.lastWork(), why, clock.instant(), s.restarts() + 1));
  }

  /** {@code part} failed for good. */
  public synchronized void stopped(Part part, String why) {
    PartStatus s = parts.get(part);
    if (s == null) return;
    parts.put(part, new PartStatus(s.part(), State.STOPPED, s.work(), s.lastWork(), why, clock.instant(), s.restarts()));
  }

  /** Every listed part, in a fixed order. */
  public synchronized List<PartStatus> status() {
    return new ArrayList<>(parts.values());
  }

  public Instant now() {
    return clock.instant();
  }
}

package dev.gq.core.end;

import java.time.Instant;

/**
 * A preempted job still ran when the preemption's grace was over, seen at {@code at}: what the runner
 * found of its checkpoints then: the newest complete one ({@code checkpoint}, its directory's name, and
 * when its state was {@code saved}), none ({@code checkpoint} null), or that they could not be read
 * ({@code unreadable}). {@link EndReasons#ignored} words it.
 */
public record PreemptIgnored(Instant at, String checkpoint, Instant saved, boolean unreadable) {

  /** The newest complete checkpoint, {@code name}, saved at {@code saved}. */
  public static PreemptIgnored found(Instant at, String name, Instant saved) {
    return new PreemptIgnored(at, name, saved, false);
  }

  /** No complete checkpoint. */
  public static PreemptIgnored none(Instant at) {
    return new PreemptIgnored(at, null, null, false);
  }

  /** The checkpoints could not be read. */
  public static PreemptIgnored unreadable(Instant at) {
    return new PreemptIgnored(at, null, null, true);
  }
}

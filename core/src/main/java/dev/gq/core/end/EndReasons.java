package dev.gq.core.end;

import dev.gq.core.job.Durations;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.EndStates;
import dev.gq.core.ledger.Preemption;
import java.time.Duration;
import java.time.Instant;

/**
 * The words of a job's end, from what was seen of it ({@link EndSeen}): the reason a failed exec, a
 * full disk or a preemption gives, the note of a preempted job that outlived its grace, and the note a
 * full disk adds to a job that left no exit status. The one place these are worded; the reasons of a
 * job found ended at start-up are {@code Recovery}'s, with the same disk-full note. Pure.
 */
public final class EndReasons {
  private EndReasons() {}

  /** The reason the end gives, or null when its exit status says it all (the ledger then words it). */
  public static String reason(EndSeen s) {
    String reason = recorded(s);
    if (s.preempted() == null) return reason;
    String how = reason != null ? reason : EndStates.describe(s.exitCode());
    return s.ignored() != null ? "preempted: " + ignored(s.preempted(), s.ignored()) + "; " + how
        : "preempted (SIG" + s.preempted().signalName() + "); " + how;
  }

  /** What the record says, and what a full disk did to it or to the log. */
  private static String recorded(EndSeen s) {
    String full = s.diskFull() == null ? null : s.diskFull().text();
    ExitRecord r = s.record();
    if (r == null) {
      if (s.shimStandsIn()) return EndStates.describe(s.shimStatus()) + "; its exit record could not be written (" + full
          + "), so the status is the one its shim exited with";
      return full == null ? null : "the job ended but its exit status could not be written: " + full;
    }
    String reason = r.kind() == ExitRecord.Kind.EXEC_FAILED ? r.text() : null;
    if (full != null && r.exitCode() != 0)
      reason = (reason == null ? EndStates.describe(r.exitCode()) : reason) + "; " + full + ", so its log may be cut short";
    return reason;
  }

  /** "did not stop within 1m of SIGTERM; stopped (newest checkpoint checkpoint-150, saved 4m ago)". */
  public static String ignored(Preemption p, PreemptIgnored i) {
    String found = i.unreadable() ? "its checkpoints could not be read"
        : i.checkpoint() == null ? "no complete checkpoint found"
        : "newest checkpoint " + checkpoint(i.checkpoint(), i.saved(), i.at());
    return "did not stop within " + Durations.format(p.grace()) + " of SIG" + p.signalName() + "; stopped (" + found + ")";
  }

  /** "checkpoint-150, saved 4m ago" (a checkpoint saved after {@code now}: 0s ago). */
  public static String checkpoint(String name, Instant saved, Instant now) {
    Duration age = Duration.between(saved, now);
    return name + ", saved " + Durations.format(age.isNegative() ? Duration.ZERO : age) + " ago";
  }

  /**
   * {@code reason}, with the note of the full disk that may have kept the job's exit status from being
   * written ({@code diskFull}; null: {@code reason} as it is).
   */
  public static String unrecorded(String reason, DiskFull diskFull) {
    return diskFull == null ? reason : reason + "; " + diskFull.text();
  }
}

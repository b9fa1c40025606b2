package dev.gq.core.notify;

import java.time.Duration;
import java.util.Set;

/**
 * One message to send: its {@code kind}, the job and group it is about (null when none), the job's
 * end state (null for a group or the queue), a short {@code title} and the one-line {@code text}.
 * {@code jobChoice} is what the job asked for with {@code --notify} (null: each target's own
 * choice); {@code runtime} how long the job ran (null when it never ran), which a target's minimum
 * run time is checked against. {@code seq} is the stored event it follows from. {@code byGroup}: a
 * failure its group's own message tells (a quick failure in a group, which a fail-fast hold or the
 * group's end names), so that a target's {@code failed} does not hear it twice.
 */
public record Notice(long seq, NoticeKind kind, Long jobId, String group, String state, String title, String text,
    Set<NoticeKind> jobChoice, Duration runtime, boolean byGroup) {

  public Notice(long seq, NoticeKind kind, Long jobId, String group, String state, String title, String text,
      Set<NoticeKind> jobChoice, Duration runtime) {
    this(seq, kind, jobId, group, state, title, text, jobChoice, runtime, false);
  }

  /** The message {@code gq notify test} sends. */
  public static Notice test(String text) {
    return new Notice(0, NoticeKind.TEST, null, null, null, "gq: test", text, null, null);
  }
}

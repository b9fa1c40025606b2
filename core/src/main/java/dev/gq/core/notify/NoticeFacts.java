package dev.gq.core.notify;

import java.time.Duration;
import java.util.Optional;

/**
 * The port through which {@link NoticeRules} asks what the events stored up to one of them say.
 * Every answer is the one right after event {@code seq}, however far the history has moved on
 * since, so that the same events in the same order always give the same messages: whether a job
 * or a group is still live, and a group's counts, are those after {@code seq}, never those of a
 * later moment.
 */
public interface NoticeFacts {
  /** The job as the history holds it: once the job ended, its end (which never changes again). */
  Optional<JobFacts> job(long id);

  /**
   * The group's counts by state right after event {@code seq}, over the jobs stored by then
   * ({@link GroupFacts#first} and {@link GroupFacts#lastEnd} may be left null: see {@link #times}).
   */
  Optional<GroupFacts> group(String group, long seq);

  /**
   * {@code counted} with its first start and last end filled in, over the jobs stored by event
   * {@code seq}: asked only when a group's notice is made, since it reads every job of the group
   * (a cancelled sweep of 10,000 jobs ends 10,000 jobs, and only its first end can be the group's notice).
   */
  default GroupFacts times(GroupFacts counted, long seq) {
    return counted;
  }

  /** How many jobs are not yet ended, in the whole queue, right after event {@code seq}. */
  long liveJobs(long seq);

  /**
   * Whether event {@code seq} is the last of the write that stored it: a group's message and the
   * drained queue are decided there, after what that write's events caused (a retry, a fail-fast hold).
   */
  default boolean endsWrite(long seq) {
    return true;
  }

  /**
   * How soon after its start a FAILED job counts toward its group's fail-fast hold (the rule's
   * window; zero when fail-fast is off): such a failure is told by its group's messages.
   */
  default Duration failFastWithin() {
    return Duration.ZERO;
  }
}

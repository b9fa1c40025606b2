package dev.gq.core.notify;

import java.time.Duration;
import java.util.Optional;

/**
 * The port through which {@link NoticeRules} asks the history what it knows, read when an event
 * is decided (the history is never behind the events decided).
 */
public interface NoticeFacts {
  Optional<JobFacts> job(long id);

  /** The group's counts by state ({@link GroupFacts#first} and {@link GroupFacts#lastEnd} may be left null: see {@link #times}). */
  Optional<GroupFacts> group(String group);

  /**
   * {@code counted} with its first start and last end filled in: asked only when a group's notice
   * is made, since it reads every job of the group (a cancelled sweep of 10,000 jobs ends 10,000
   * jobs, and only its first end can be the group's notice).
   */
  default GroupFacts times(GroupFacts counted) {
    return counted;
  }

  /** How many jobs are not yet ended, in the whole queue. */
  long liveJobs();

  /** Whether the history holds no event stored after {@code seq}: its facts are those right after that event. */
  default boolean latest(long seq) {
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

package dev.gq.core.notify;

import java.util.Optional;

/**
 * The port through which {@link NoticeRules} asks the history what it knows, read when an event
 * is decided (the history is never behind the events decided).
 */
public interface NoticeFacts {
  Optional<JobFacts> job(long id);

  Optional<GroupFacts> group(String group);

  /** How many jobs are not yet ended, in the whole queue. */
  long liveJobs();
}

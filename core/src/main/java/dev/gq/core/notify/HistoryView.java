package dev.gq.core.notify;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The job history as it is when read, which may hold events stored after the one being decided:
 * {@link FactsAfter} takes those back. The reads made inside one {@link #still} see the history at
 * the one offset {@code still} hands them.
 */
public interface HistoryView {
  /** Runs {@code reads} while the history takes no event, handing them the sequence number of the last one it took. */
  <T> T still(LongFunction<T> reads);

  /** What the events stored after {@code seq} and up to {@code upTo} did to the queue. */
  Ahead ahead(long seq, long upTo);

  /** The job as the history holds it. */
  Optional<JobFacts> job(long id);

  /** How many jobs are live in the history (inside {@link #still}). */
  long live();

  /** The group's counts over its jobs with an id below {@code idBelow}, each cell's latest attempt among them (inside {@link #still}). */
  Optional<GroupFacts> group(String group, long idBelow);

  /** The states of those of {@code ids} that are in {@code group} (inside {@link #still}). */
  List<JobState> states(String group, Collection<Long> ids);

  /** {@code counted} with its first start and last end, over the group's jobs with an id below {@code idBelow}. */
  GroupFacts times(GroupFacts counted, long idBelow);

  /** Whether event {@code seq} is the last of its write. */
  boolean endsWrite(long seq);

  /** The fail-fast rule's window ({@link NoticeFacts#failFastWithin}). */
  Duration failFastWithin();
}

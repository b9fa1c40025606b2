package dev.gq.api;

import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.job.WaitReason;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * What a listing of any length ({@code gq ps}) asks of the daemon a page at a time, so that it holds
 * a page's worth whatever the queue's length: the page's jobs, their places in the queue and why
 * they wait ({@link GqApi#waitReasons(Collection)}). The daemon answers each from its memory; these defaults, for a daemon in memory (tests),
 * read the whole queue.
 */
public interface ListingApi {
  JobPage jobPage(JobQuery query) throws ApiException;

  Map<Long, WaitReason> waitReasons() throws ApiException;

  /**
   * As {@link #jobPage}, for a listing that reads the live jobs page by page: the daemon takes a
   * live job from its memory and reads only its command and log path from the history, so that a
   * list of any length is served without decoding its records. Without {@code logPaths} a job's log
   * path is left out (null), as a table, which never shows it, needs, and its command is read from
   * the beginning of its record alone.
   */
  default JobPage listingPage(JobQuery query, boolean logPaths) throws ApiException {
    return jobPage(query);
  }

  /**
   * The places in this machine's queue (1 starts next; {@link QueueOrder}) of those of {@code ids}
   * that are queued, by id, counted over every waiting job.
   */
  default Map<Long, Integer> queuePositions(Collection<Long> ids) throws ApiException {
    return QueueOrder.positions(jobPage(new JobQuery(List.of(), EnumSet.of(JobState.WAITING), null, 0)).jobs(), ids);
  }
}

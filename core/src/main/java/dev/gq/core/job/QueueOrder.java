package dev.gq.core.job;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which this machine's waiting jobs get GPUs: higher priority first, then oldest
 * (lowest id) first. The Ledger places jobs in this order and {@code gq ps} shows it (POS), so the
 * two cannot disagree. Jobs a Slurm cluster runs are not in it.
 */
public final class QueueOrder {
  private QueueOrder() {}

  /** Higher priority first, then the lower id. */
  public static final Comparator<Job> ORDER =
      Comparator.comparingInt((Job j) -> -j.spec().priority()).thenComparingLong(Job::id);

  /** Whether {@code job} is in this machine's queue: waiting, and not sent to a cluster. */
  public static boolean queued(Job job) {
    return job.state() == JobState.WAITING && !job.spec().onCluster();
  }

  /** The queued ones of {@code jobs}, in queue order. */
  public static List<Job> sorted(Collection<Job> jobs) {
    return jobs.stream().filter(QueueOrder::queued).sorted(ORDER).toList();
  }

  /** Each queued job's place in the queue, from 1, by job id. */
  public static Map<Long, Integer> positions(Collection<Job> jobs) {
    Map<Long, Integer> at = new HashMap<>();
    List<Job> order = sorted(jobs);
    for (int i = 0; i < order.size(); i++) at.put(order.get(i).id(), i + 1);
    return at;
  }
}

package dev.gq.core.job;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /**
   * The places in the queue, from 1, of those of {@code ids} that are queued among {@code jobs}, by
   * job id: each counted over every queued job of {@code jobs}, holding nothing but the ones asked.
   */
  public static Map<Long, Integer> positions(Collection<Job> jobs, Collection<Long> ids) {
    Set<Long> wanted = new HashSet<>(ids);
    List<Job> asked = jobs.stream().filter(j -> wanted.contains(j.id()) && queued(j)).sorted(ORDER).toList();
    if (asked.isEmpty()) return Map.of();
    // ahead[i]: how many queued jobs come before the i-th asked one and not before the one before it
    int[] ahead = new int[asked.size() + 1];
    for (Job j : jobs) {
      if (!queued(j)) continue;
      int lo = 0, hi = asked.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (ORDER.compare(j, asked.get(mid)) < 0) hi = mid;
        else lo = mid + 1;
      }
      ahead[lo]++;
    }
    Map<Long, Integer> at = new HashMap<>();
    int before = 0;
    for (int i = 0; i < asked.size(); i++) {
      before += ahead[i];
      at.put(asked.get(i).id(), before + 1);
    }
    return at;
  }

  /** Each queued job's place in the queue, from 1, by job id. */
  public static Map<Long, Integer> positions(Collection<Job> jobs) {
    Map<Long, Integer> at = new HashMap<>();
    List<Job> order = sorted(jobs);
    for (int i = 0; i < order.size(); i++) at.put(order.get(i).id(), i + 1);
    return at;
  }
}

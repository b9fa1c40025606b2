package dev.gq.cli;

import dev.gq.core.job.Job;
import dev.gq.core.job.QueueOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The places in this machine's queue (1 starts next) of the queued jobs of a list that holds every
 * one of them, counted a page at a time. The queue's order is higher priority first, then the lower
 * id ({@link QueueOrder}): handed over newest first, a job's place is the number of queued jobs of a
 * higher priority, plus those of its own priority not handed over yet (all older than it), plus one.
 * So a pass that {@link #count counts} how many jobs wait at each priority, and the next that asks
 * each page's {@link #places}, hold a number per priority, whatever the queue's length.
 */
final class QueuePlaces {
  /** Per priority: how many wait, how many wait at a higher one, how many were handed over. */
  private static final class Bucket {
    long count;
    long ahead;
    long seen;
  }

  private final TreeMap<Integer, Bucket> byPriority = new TreeMap<>();
  private long total;
  private boolean summed;

  /** Counts {@code job} when it is queued (a pass over the whole list before {@link #places}). */
  void count(Job job) {
    if (!QueueOrder.queued(job)) return;
    byPriority.computeIfAbsent(job.spec().priority(), p -> new Bucket()).count++;
    total++;
  }

  /** How many queued jobs were counted: the last place. */
  long total() {
    return total;
  }

  /** The places of the queued jobs of {@code page}, the next page of the list newest first, by id. */
  Map<Long, Integer> places(List<Job> page) {
    if (!summed) sum();
    Map<Long, Integer> out = new HashMap<>();
    for (Job j : page) {
      if (!QueueOrder.queued(j)) continue;
      Bucket b = byPriority.get(j.spec().priority());
      // a job queued since the count: after those of its priority that were counted
      long place = b == null ? aheadOf(j.spec().priority()) + 1 : b.ahead + Math.max(1, b.count - b.seen++);
      out.put(j.id(), (int) Math.min(Integer.MAX_VALUE, place));
    }
    return out;
  }

  private void sum() {
    long ahead = 0;
    for (Bucket b : byPriority.descendingMap().values()) {
      b.ahead = ahead;
      ahead += b.count;
    }
    summed = true;
  }

  private long aheadOf(int priority) {
    long n = 0;
    for (Bucket b : byPriority.tailMap(priority, false).values()) n += b.count;
    return n;
  }
}

package dev.gq.actors.socket;

import dev.gq.core.job.WaitReason;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Why each waiting job waited in one plan of the queue, kept for the pages of the listings that ask
 * within {@link QueueRequests#PLAN_KEPT} while the Scheduler stores nothing new: the job ids in
 * order and the reason of each, equal reasons shared, so that the plan of a queue of 100,000 jobs is
 * kept in about a megabyte rather than a map of 100,000 entries. Immutable.
 */
record PlannedReasons(long seqNr, long madeNanos, long[] ids, WaitReason[] reasons) {
  /** The reasons of {@code all}, from the view as of event {@code seqNr}, made at {@code madeNanos}. */
  static PlannedReasons of(long seqNr, long madeNanos, Map<Long, WaitReason> all) {
    long[] ids = new long[all.size()];
    int n = 0;
    for (long id : all.keySet()) ids[n++] = id;
    Arrays.sort(ids);
    WaitReason[] reasons = new WaitReason[ids.length];
    // a plan gives most jobs one of a few instances: each is looked up by identity, and only a new
    // one by its contents (hashing every job's reason took as long as the plan)
    Map<WaitReason, WaitReason> seen = new IdentityHashMap<>();
    Map<WaitReason, WaitReason> shared = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      WaitReason r = all.get(ids[i]);
      WaitReason s = seen.get(r);
      if (s == null) seen.put(r, s = shared.computeIfAbsent(r, x -> x)); // no lambda made per job
      reasons[i] = s;
    }
    return new PlannedReasons(seqNr, madeNanos, ids, reasons);
  }

  /** Why job {@code id} waited; null when the plan gives no reason for it. */
  WaitReason get(long id) {
    int i = Arrays.binarySearch(ids, id);
    return i < 0 ? null : reasons[i];
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.job.WaitReason;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A view's wait reasons, each waiting job's, from a plan made when they are first read, on the
 * reader's thread: most readers of a view want its ledger or its GPUs only, and with 100,000 waiting
 * jobs the plan is most of a view's cost. The plan is pure, of the view's ledger and the
 * Scheduler's memory as they were: they never change. One plan is made at a time, as when the
 * Scheduler made them all: a plan of a long queue takes memory while it is made, and many readers
 * at once (gq top, gq ps) must not take it all at once.
 */
final class PlanReasons extends AbstractMap<Long, WaitReason> {
  private static final Object PLANNING = new Object();
  private final Supplier<Map<Long, WaitReason>> plan;
  private volatile Map<Long, WaitReason> made;

  PlanReasons(Supplier<Map<Long, WaitReason>> plan) {
    this.plan = plan;
  }

  /** Whether the plan was made (read). */
  boolean made() {
    return made != null;
  }

  private Map<Long, WaitReason> reasons() {
    Map<Long, WaitReason> m = made;
    if (m == null) {
      synchronized (PLANNING) {
        if (made == null) made = plan.get();
        m = made;
      }
    }
    return m;
  }

  @Override public Set<Entry<Long, WaitReason>> entrySet() {
    return reasons().entrySet();
  }

  @Override public WaitReason get(Object key) {
    return reasons().get(key);
  }

  @Override public boolean containsKey(Object key) {
    return reasons().containsKey(key);
  }

  @Override public int size() {
    return reasons().size();
  }
}

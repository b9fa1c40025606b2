package dev.gq.core.ledger;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the user set for the queue: each group's cap on active jobs ({@code maxRunning}) and the
 * GPUs drained of new jobs (UUID → reason).
 */
public record QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained, Set<Long> heldJobs) {
  public static final QueueSettings NONE = new QueueSettings(Map.of(), Map.of(), Set.of());

  public QueueSettings {
    maxRunning = maxRunning == null ? Map.of() : Map.copyOf(maxRunning);
    drained = drained == null ? Map.of() : Map.copyOf(drained);
    heldJobs = heldJobs == null ? Set.of() : Set.copyOf(heldJobs);
  }

  /** Without held jobs (as stored before jobs could be held one by one). */
  public QueueSettings(Map<String, Integer> maxRunning, Map<String, String> drained) {
    this(maxRunning, drained, Set.of());
  }

  QueueSettings limit(String group, Integer n) {
    return new QueueSettings(with(maxRunning, group, n), drained, heldJobs);
  }

  QueueSettings drain(String uuid, String reason) {
    return new QueueSettings(maxRunning, with(drained, uuid, reason), heldJobs);
  }

  QueueSettings hold(List<Long> ids, boolean held) {
    Set<Long> next = new HashSet<>(heldJobs);
    if (held) next.addAll(ids);
    else next.removeAll(ids);
    return new QueueSettings(maxRunning, drained, next);
  }

  private static <V> Map<String, V> with(Map<String, V> m, String k, V v) {
    Map<String, V> copy = new HashMap<>(m);
    if (v == null) copy.remove(k);
    else copy.put(k, v);
    return copy;
  }
}

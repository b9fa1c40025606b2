package dev.gq.core.notify;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the notifier remembers between events, stored with its cursor so that a restart neither
 * repeats nor forgets a message: for each group the number of its ended jobs when its last "group
 * finished" message was sent (so a sweep is announced once, and again only after more of its jobs
 * ended), whether the queue's "drained" message was sent since something last entered the queue,
 * and the jobs ended since the queue last started again after a drain, by state. At most {@link #MAX_GROUPS} groups are kept, oldest
 * announcement dropped first.
 */
public record NotifierMemory(Map<String, Integer> announced, boolean drained, Map<String, Integer> endedSinceDrain) {
  public static final int MAX_GROUPS = 10_000;
  public static final NotifierMemory EMPTY = new NotifierMemory(Map.of(), false, Map.of());

  public NotifierMemory {
    announced = announced == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(announced));
    endedSinceDrain = endedSinceDrain == null ? Map.of() : Map.copyOf(endedSinceDrain);
  }

  NotifierMemory announce(String group, int ended) {
    LinkedHashMap<String, Integer> m = new LinkedHashMap<>(announced);
    m.remove(group);
    m.put(group, ended);
    while (m.size() > MAX_GROUPS) m.remove(m.keySet().iterator().next());
    return new NotifierMemory(m, drained, endedSinceDrain);
  }

  NotifierMemory ended(String state) {
    TreeMap<String, Integer> m = new TreeMap<>(endedSinceDrain);
    m.merge(state, 1, Integer::sum);
    return new NotifierMemory(announced, drained, m);
  }

  NotifierMemory drainedNow() {
    return new NotifierMemory(announced, true, Map.of());
  }

  NotifierMemory queued() {
    return drained ? new NotifierMemory(announced, false, Map.of()) : this;
  }
}

package dev.gq.core.notify;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the notifier remembers between events, stored with its cursor so that a restart neither
 * repeats nor forgets a message: for each group the number of its ended jobs when its last "group
 * finished" message was sent (so a sweep is announced once, and again only after more of its jobs
 * ended), whether the queue's "drained" message was sent since something last entered the queue,
 * and of the jobs ended since the queue last ran dry: their count by state, the one group they all
 * belong to ({@code sweep}; null when they belong to none or to several), and the longest run among
 * them ({@code longest}), which say whether a drained message would tell anything new. Besides: the
 * groups some of whose jobs ended in the write being decided, whose message is decided at its last
 * event ({@code due}, with the last of them to end), and the groups held by fail-fast since their last
 * release ({@code held}): the hold told their outcome, so their end is not told again until a
 * release. At most {@link #MAX_GROUPS} groups are kept, oldest announcement dropped first.
 */
public record NotifierMemory(Map<String, Integer> announced, boolean drained, Map<String, Integer> endedSinceDrain,
    String sweep, Duration longest, Map<String, Long> due, Set<String> held) {
  public static final int MAX_GROUPS = 10_000;
  /** A run long enough that a drained message after it always tells something. */
  private static final Duration LONG_AGO = Duration.ofDays(365);
  public static final NotifierMemory EMPTY = new NotifierMemory(Map.of(), false, Map.of(), null, Duration.ZERO, Map.of(), Set.of());

  public NotifierMemory {
    announced = announced == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(announced));
    endedSinceDrain = endedSinceDrain == null ? Map.of() : Map.copyOf(endedSinceDrain);
    longest = longest == null ? Duration.ZERO : longest;
    due = due == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(due));
    held = held == null ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(held));
  }

  /** As stored before the sweep, the longest run and the holds were remembered: a drained message then always tells. */
  public NotifierMemory(Map<String, Integer> announced, boolean drained, Map<String, Integer> endedSinceDrain) {
    this(announced, drained, endedSinceDrain, null, LONG_AGO, Map.of(), Set.of());
  }

  /** How many jobs ended since the queue last ran dry. */
  public int endedCount() {
    return endedSinceDrain.values().stream().mapToInt(Integer::intValue).sum();
  }

  NotifierMemory announce(String group, int ended) {
    LinkedHashMap<String, Integer> m = new LinkedHashMap<>(announced);
    m.remove(group);
    m.put(group, ended);
    while (m.size() > MAX_GROUPS) m.remove(m.keySet().iterator().next());
    return new NotifierMemory(m, drained, endedSinceDrain, sweep, longest, notDue(group).due(), held);
  }

  /** {@code closer}, of {@code group}, ended: the group's message is decided at the write's last event. */
  NotifierMemory due(String group, long closer) {
    TreeMap<String, Long> d = new TreeMap<>(due);
    d.put(group, closer);
    return new NotifierMemory(announced, drained, endedSinceDrain, sweep, longest, d, held);
  }

  NotifierMemory notDue(String group) {
    TreeMap<String, Long> d = new TreeMap<>(due);
    d.remove(group);
    return new NotifierMemory(announced, drained, endedSinceDrain, sweep, longest, d, held);
  }

  /** Fail-fast held {@code group} ({@code on}) or it was released. */
  NotifierMemory held(String group, boolean on) {
    TreeSet<String> h = new TreeSet<>(held);
    if (on) h.add(group);
    else h.remove(group);
    return new NotifierMemory(announced, drained, endedSinceDrain, sweep, longest, due, h);
  }

  /** One more job ended, in {@code state}, in {@code group} (null: none), after running {@code ran} (null: never ran). */
  NotifierMemory ended(String state, String group, Duration ran) {
    TreeMap<String, Integer> m = new TreeMap<>(endedSinceDrain);
    m.merge(state, 1, Integer::sum);
    boolean first = endedSinceDrain.isEmpty();
    String g = first ? group : Objects.equals(sweep, group) ? sweep : null;
    Duration r = ran == null ? Duration.ZERO : ran;
    Duration l = first || r.compareTo(longest) > 0 ? r : longest;
    return new NotifierMemory(announced, drained, m, g, l, due, held);
  }

  NotifierMemory drainedNow() {
    return new NotifierMemory(announced, true, Map.of(), null, Duration.ZERO, due, held);
  }

  NotifierMemory queued() {
    return drained ? new NotifierMemory(announced, false, Map.of(), null, Duration.ZERO, due, held) : this;
  }
}

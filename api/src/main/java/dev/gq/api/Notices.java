package dev.gq.api;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Notes already said once, so that a note repeated by every submit of a sweep (the same dropped
 * variables each time) is said the first time only. Remembers the latest {@code capacity} notes,
 * for as long as the daemon runs. Thread-safe.
 */
public final class Notices {
  private final int capacity;
  private final Set<String> said = new LinkedHashSet<>();

  public Notices(int capacity) {
    this.capacity = capacity;
  }

  /** True the first time {@code note} is offered (again after it was forgotten); false after. */
  public synchronized boolean first(String note) {
    if (!said.add(note)) return false;
    if (said.size() > capacity) said.remove(said.iterator().next());
    return true;
  }
}

package dev.gq.core.gpu;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last few figures of each GPU, kept from the readings the daemon takes anyway, so that
 * {@code gq top} can draw a short history without reading the devices itself. Readings closer than
 * {@code minGap} to the one kept before are not kept (a job's end asks for a reading of its own),
 * so the points stand about one poll apart. A GPU missing from a reading is forgotten. Thread-safe.
 */
public final class GpuHistory {
  /** One GPU's newest figures and its utilisation over the last readings, oldest first (null: not given). */
  public record Trace(GpuFigures latest, List<Integer> util) {
    public Trace {
      util = Collections.unmodifiableList(new ArrayList<>(util));
    }
  }

  private final int size;
  private final Duration minGap;
  private final Map<String, ArrayDeque<Integer>> util = new HashMap<>();
  private final Map<String, GpuFigures> latest = new HashMap<>();
  private Instant last;

  public GpuHistory(int size, Duration minGap) {
    if (size < 1) throw new IllegalArgumentException("size must be at least 1");
    this.size = size;
    this.minGap = minGap;
  }

  /** Keeps a reading's figures; a failed reading keeps nothing. */
  public synchronized void record(GpuReading reading) {
    if (!reading.ok()) return;
    boolean keep = last == null || !reading.at().isBefore(last.plus(minGap));
    Map<String, GpuFigures> now = new HashMap<>();
    for (DeviceReading d : reading.devices()) now.put(d.uuid(), d.figures());
    latest.keySet().retainAll(now.keySet());
    util.keySet().retainAll(now.keySet());
    latest.putAll(now);
    if (!keep) return;
    last = reading.at();
    for (Map.Entry<String, GpuFigures> e : now.entrySet()) {
      ArrayDeque<Integer> ring = util.computeIfAbsent(e.getKey(), k -> new ArrayDeque<>(size));
      if (ring.size() == size) ring.removeFirst();
      ring.addLast(e.getValue().utilPercent() == null ? -1 : e.getValue().utilPercent());
    }
  }

  /** Every GPU's trace now, by UUID. */
  public synchronized Map<String, Trace> traces() {
    Map<String, Trace> out = new HashMap<>();
    for (Map.Entry<String, GpuFigures> e : latest.entrySet()) {
      List<Integer> points = new ArrayList<>();
      for (int p : util.getOrDefault(e.getKey(), new ArrayDeque<>())) points.add(p < 0 ? null : p);
      out.put(e.getKey(), new Trace(e.getValue(), points));
    }
    return out;
  }
}

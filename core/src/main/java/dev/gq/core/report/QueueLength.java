package dev.gq.core.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * How many jobs waited over a period: a job waits from its submission until it is given its GPUs, or
 * ends without them. Pure.
 */
public final class QueueLength {
  /** The queue's length from {@code at} on, until the next point. */
  public record Point(Instant at, int waiting) {}

  private QueueLength() {}

  /** One point at the period's start, then one at each change within it. */
  public static List<Point> over(List<JobSpan> jobs, Period p) {
    int atStart = 0;
    TreeMap<Instant, Integer> changes = new TreeMap<>();
    for (JobSpan j : jobs) {
      if (j.submit() == null || !j.submit().isBefore(p.to())) continue;
      Instant left = j.leftQueue();
      if (left != null && !left.isAfter(p.from())) continue;
      if (left != null && left.isBefore(j.submit())) continue;
      if (j.submit().isAfter(p.from())) changes.merge(j.submit(), 1, Integer::sum);
      else atStart++;
      if (left != null && left.isBefore(p.to())) changes.merge(left, -1, Integer::sum);
    }
    List<Point> out = new ArrayList<>(changes.size() + 1);
    out.add(new Point(p.from(), atStart));
    int n = atStart;
    for (var e : changes.entrySet()) {
      if (e.getValue() == 0) continue;
      n += e.getValue();
      out.add(new Point(e.getKey(), n));
    }
    return out;
  }
}

package dev.gq.core.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each job's bar lies across one GPU's lane in a report's picture: a job that had the card to
 * itself fills the lane; a shared job fills its share of it, stacked beside the shared jobs that ran
 * at the same time, at the lowest place free for its whole time (the shares on a card at one time
 * add up to at most the card, so they fit; a bar that cannot is laid at the top). Pure.
 */
public final class LaneBands {
  private static final double EPSILON = 1e-9;

  private LaneBands() {}

  /** One job's time on the GPU and the part of the card it held (0 < share <= 1). */
  public record Bar(long jobId, Instant start, Instant end, double share) {}

  /** Where a bar lies across the lane: from {@code low} to {@code low + share}, 0 the lane's edge and 1 its other. */
  public record Band(double low, double high) {}

  /** The band of each job's bar, by job id. */
  public static Map<Long, Band> of(List<Bar> bars) {
    List<Bar> order = new ArrayList<>(bars);
    order.sort(Comparator.comparing(Bar::start).thenComparingLong(Bar::jobId));
    Map<Long, Band> out = new HashMap<>();
    List<Bar> placed = new ArrayList<>();
    for (Bar b : order) {
      List<Band> beside = new ArrayList<>();
      for (Bar p : placed) if (p.start().isBefore(b.end()) && b.start().isBefore(p.end())) beside.add(out.get(p.jobId()));
      out.put(b.jobId(), place(b.share(), beside));
      placed.add(b);
    }
    return out;
  }

  /** The lowest band of {@code share} that overlaps none of {@code beside}; the top one when none is free. */
  private static Band place(double share, List<Band> beside) {
    List<Double> lows = new ArrayList<>(List.of(0.0));
    for (Band o : beside) lows.add(o.high());
    lows.sort(null);
    for (double low : lows) {
      if (low + share > 1 + EPSILON) break;
      boolean free = true;
      for (Band o : beside) free &= o.high() <= low + EPSILON || o.low() >= low + share - EPSILON;
      if (free) return new Band(low, low + share);
    }
    return new Band(1 - share, 1);
  }
}

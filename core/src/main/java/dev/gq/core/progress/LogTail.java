package dev.gq.core.progress;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the tail of a job's log (at most the last {@link LogWindow#MAX_BYTES} bytes, handed in by the
 * caller) for the tqdm and log-pattern sources. The tail is split at CR and LF, since tqdm
 * rewrites its line with CR. Among several tqdm bars (training and evaluation, the ranks of a
 * distributed run) the one with the largest total that still moves wins: a bar moves when it has
 * not reached its total and its count differs from the one the previous reading saw (a bar the
 * previous reading did not see counts as moving). When none moves, the largest unfinished bar
 * wins, then the largest. A bar without a total is taken only when no bar has one. The positions
 * of all bars come back in {@link Result#bars} for the caller to hand to the next reading. Pure.
 */
public final class LogTail {

  /**
   * The tqdm reading and the log-pattern reading in a tail (each null when absent) and the count
   * of each tqdm bar seen, by bar key, for the next reading.
   */
  public record Result(Reading tqdm, Reading pattern, Map<String, Long> bars) {
    public Result {
      bars = Map.copyOf(bars);
    }
  }

  private LogTail() {}

  /**
   * Reads {@code tail}; {@code cut} says that it starts mid-file, so its first piece may be a
   * fragment and is skipped. {@code previousBars} is {@link Result#bars} of the previous reading
   * of the same job, or an empty map.
   */
  public static Result read(byte[] tail, boolean cut, Map<String, Long> previousBars) {
    return read(LogWindow.of(tail, cut), previousBars);
  }

  /** The readings of {@code window}, parsed already (see {@link LogWindow}); {@code previousBars} as above. */
  public static Result read(LogWindow window, Map<String, Long> previousBars) {
    List<TqdmLine.Bar> bars = window.bars().stream().map(LogWindow.Line::value).toList();
    Map<String, Long> positions = new HashMap<>();
    for (TqdmLine.Bar bar : bars) positions.put(bar.key(), bar.current());
    TqdmLine.Bar chosen = choose(bars, previousBars);
    return new Result(chosen == null ? null : chosen.reading(), window.pattern() == null ? null : window.pattern().value(), positions);
  }

  /** The pieces of {@code tail} between CRs and LFs that are not blank. */
  static List<String> segments(byte[] tail, boolean cut) {
    int from = Math.max(0, tail.length - LogWindow.MAX_BYTES);
    String text = new String(tail, from, tail.length - from, StandardCharsets.UTF_8);
    String[] pieces = text.split("[\r\n]");
    List<String> out = new ArrayList<>();
    for (int i = cut || from > 0 ? 1 : 0; i < pieces.length; i++) {
      if (!pieces[i].isBlank()) out.add(pieces[i]);
    }
    return out;
  }

  /** The bar to read; {@code bars} in order of their newest line, later lines winning ties. */
  static TqdmLine.Bar choose(List<TqdmLine.Bar> bars, Map<String, Long> previous) {
    TqdmLine.Bar moving = null;
    TqdmLine.Bar unfinished = null;
    TqdmLine.Bar any = null;
    for (TqdmLine.Bar b : bars) {
      if (b.total() == 0) continue;
      Long before = previous.get(b.key());
      if (!b.finished() && (before == null || before != b.current())) moving = larger(moving, b);
      if (!b.finished()) unfinished = larger(unfinished, b);
      any = larger(any, b);
    }
    if (moving != null) return moving;
    if (unfinished != null) return unfinished;
    if (any != null) return any;
    return bars.isEmpty() ? null : bars.get(bars.size() - 1);
  }

  private static TqdmLine.Bar larger(TqdmLine.Bar best, TqdmLine.Bar b) {
    return best == null || b.total() >= best.total() ? b : best;
  }
}

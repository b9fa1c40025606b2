package dev.gq.core.progress;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * The rule that turns what a job left behind into one {@link Estimate}. Sources are tried in the
 * order of {@link Source}: the progress file, tqdm bars in the log's tail, log patterns, the
 * newest checkpoint's {@code trainer_state.json}; the first with a total wins (a tqdm bar without
 * a total is used only when no source has one). The rate and remaining time are the source's own
 * when it has them (tqdm); otherwise the rate comes from {@link ProgressHistory} and the time
 * remaining is what is left divided by it. The caller reads the files and keeps the returned
 * {@link Memory} per job for the next reading. Pure.
 */
public final class Estimator {
  /**
   * What was read for one job, each null when absent: the progress file's content, the log's
   * last window, parsed ({@link LogWindow}), and the newest checkpoint's {@code trainer_state.json}.
   */
  public record Inputs(String progressFile, LogWindow log, String trainerState) {
    /** Inputs with the log's last bytes, parsed here as a fresh {@link LogWindow}. */
    public Inputs(String progressFile, byte[] logTail, boolean logTailCut, String trainerState) {
      this(progressFile, logTail == null ? null : LogWindow.of(logTail, logTailCut), trainerState);
    }
  }

  /** What one reading leaves for the next of the same job: tqdm bar counts and the progress history. */
  public record Memory(Map<String, Long> bars, ProgressHistory history) {
    public static final Memory EMPTY = new Memory(Map.of(), ProgressHistory.EMPTY);

    public Memory {
      bars = Map.copyOf(bars);
    }
  }

  /** The estimate (null when no source yields) and the memory to keep. */
  public record Result(Estimate estimate, Memory memory) {}

  private Estimator() {}

  /** The estimate for a job from {@code in}, read at {@code now}. */
  public static Result estimate(Inputs in, Memory memory, Instant now) {
    LogTail.Result tail = in.log() == null
        ? new LogTail.Result(null, null, memory.bars())
        : LogTail.read(in.log(), memory.bars());
    Reading reading = choose(
        ProgressFile.parse(in.progressFile()), tail.tqdm(), tail.pattern(), TrainerState.parse(in.trainerState()));
    if (reading == null) return new Result(null, new Memory(tail.bars(), memory.history()));
    ProgressHistory history = memory.history().with(reading, now);
    return new Result(estimate(reading, history), new Memory(tail.bars(), history));
  }

  /** The first reading with a total, else the first reading, else null. */
  static Reading choose(Reading... inOrder) {
    return Arrays.stream(inOrder).filter(r -> r != null && r.hasTotal()).findFirst()
        .orElse(Arrays.stream(inOrder).filter(Objects::nonNull).findFirst().orElse(null));
  }

  /** {@code r} completed with a rate and remaining time from {@code history} where it has none. */
  static Estimate estimate(Reading r, ProgressHistory history) {
    double rate = Double.isNaN(r.ratePerSecond()) ? history.ratePerSecond() : r.ratePerSecond();
    Duration remaining = r.remaining();
    if (remaining == null && r.hasTotal() && rate > 0) {
      remaining = Duration.ofMillis(Math.round((r.total() - r.current()) / rate * 1000));
    }
    double percent = r.hasTotal() ? 100.0 * r.current() / r.total() : Double.NaN;
    return new Estimate(r.current(), r.total(), percent, rate, r.hasTotal() ? remaining : null, r.source());
  }
}

package dev.gq.cli;

import dev.gq.core.job.Durations;
import java.time.Duration;

/**
 * A duration given as an option's value ({@code --time}, {@code --timeout}, {@code --grace},
 * {@code --min-runtime}, {@code --older-than}), at most {@link Durations#LONGEST} unless the
 * option says otherwise.
 */
final class DurationOption {
  private DurationOption() {}

  /** The duration {@code text} means (null when not given), at most 365 days; anything else is a usage error naming the option. */
  static Duration parse(String option, String text) {
    return parse(option, text, Durations.LONGEST);
  }

  /** The duration {@code text} means (null when not given), at most {@code max}; anything else is a usage error naming the option. */
  static Duration parse(String option, String text, Duration max) {
    if (text == null) return null;
    Duration d = Durations.parse(text);
    if (d == null) throw new UsageException(Durations.problem(text, " for " + option));
    String over = Durations.tooLong(d, max, option, text);
    if (over != null) throw new UsageException(over);
    return d;
  }
}

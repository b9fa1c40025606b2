package dev.gq.cli;

import dev.gq.core.job.Durations;
import java.time.Duration;

/** A duration given as an option's value ({@code --time}, {@code --timeout}, {@code --older-than}). */
final class DurationOption {
  private DurationOption() {}

  /** The duration {@code text} means (null when not given); anything else is a usage error naming the option. */
  static Duration parse(String option, String text) {
    if (text == null) return null;
    Duration d = Durations.parse(text);
    if (d == null) throw new UsageException(Durations.problem(text, " for " + option));
    return d;
  }
}

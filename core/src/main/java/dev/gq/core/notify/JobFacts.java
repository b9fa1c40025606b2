package dev.gq.core.notify;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;

/**
 * What the history knows of one job when a notice about it is decided: its name and group, its
 * state, when it ran, its exit code and reason, and the value of {@code GQ_NOTIFY} in its stored
 * environment ({@code asked}, null when unset), which {@code --notify} writes.
 */
public record JobFacts(long id, String name, String group, JobState state, Instant start, Instant end, Integer exitCode,
    String reason, String asked) {

  /** How long it ran; null when it never started or has not ended. */
  public Duration runtime() {
    return start == null || end == null || end.isBefore(start) ? null : Duration.between(start, end);
  }
}

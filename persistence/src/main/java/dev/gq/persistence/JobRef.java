package dev.gq.persistence;

import dev.gq.core.job.JobState;
import dev.gq.core.ledger.HistoryFact;
import java.time.Instant;

/** A job of the history by id, its state, the log path it was given (null when none) and when it ended (null while not). */
public record JobRef(long id, JobState state, String logPath, Instant endTime) {
  /** What a deletion needs to know of it. */
  public HistoryFact fact() {
    return new HistoryFact(id, state, endTime);
  }

  static Instant endTime(String text) {
    return text == null ? null : Instant.parse(text);
  }
}

package dev.gq.core.recovery;

import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.JobIdsSkipped;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which job ids the files in the data directory's {@code logs/} and {@code run/} name, and the
 * start-up rule that keeps them from being issued again: a file {@code 12.log}, {@code 12.exit} or
 * {@code 12.anything} belongs to job 12, and when the history's next id is not above the highest
 * such id (the history lost its last writes, or was restored from an older copy), the next id
 * moves past it, so that a new job never writes into an old job's log or reads its exit record.
 * Pure: the daemon lists the directories and persists the event.
 */
public final class JobFileIds {
  private JobFileIds() {}

  /** The job id a file name in logs/ or run/ belongs to: its digits before the first dot; empty for any other name. */
  public static OptionalLong idOf(String fileName) {
    int dot = fileName.indexOf('.');
    if (dot <= 0 || dot > 18) return OptionalLong.empty();
    long id = 0;
    for (int i = 0; i < dot; i++) {
      char c = fileName.charAt(i);
      if (c < '0' || c > '9') return OptionalLong.empty();
      id = id * 10 + (c - '0');
    }
    return id > 0 ? OptionalLong.of(id) : OptionalLong.empty();
  }

  /**
   * Whether a file of this name shows that its job ran: its log ({@code 12.log}, made at launch) or
   * its exit record ({@code 12.exit}, written by its shim), both written only after the journal
   * stored the job. A journal whose next id is not above such a job's id lost that job.
   */
  public static boolean provesARun(String fileName) {
    return idOf(fileName).isPresent() && (fileName.endsWith(".log") || fileName.endsWith(".exit"))
        && fileName.indexOf('.') == fileName.lastIndexOf('.');
  }

  /** The highest job id among {@code fileNames}; 0 when none names a job. */
  public static long highest(Iterable<String> fileNames) {
    long max = 0;
    for (String n : fileNames) max = Math.max(max, idOf(n).orElse(0));
    return max;
  }

  /** The event that moves the next id past {@code highestFileId}; empty when the ledger's next id is above it already. */
  public static Optional<JobIdsSkipped> skipPast(Ledger l, long highestFileId, Instant now) {
    if (highestFileId < l.nextId()) return Optional.empty();
    return Optional.of(new JobIdsSkipped(highestFileId + 1, "logs/ or run/ hold files of job " + highestFileId
        + ", which the history does not know; no id up to it is issued again", now));
  }
}

package dev.gq.persistence;

/**
 * How far the history is behind the journal, from two numbers: the history's offset (the
 * last event applied) and the journal's highest sequence number. Catching up reads exactly the
 * events after the offset, so an up-to-date history needs no read of the journal at all.
 */
public record HistoryLag(long readOffset, long journalHighest) {
  /** Nothing to read: every stored event is already applied. */
  public boolean upToDate() {
    return readOffset >= journalHighest;
  }

  /** How many events the history lacks. */
  public long missing() {
    return Math.max(0, journalHighest - readOffset);
  }

  /** The history claims events the journal does not hold (a journal replaced under it). */
  public boolean ahead() {
    return readOffset > journalHighest;
  }
}

package dev.gq.actors.notify;

import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The last event of each write the Scheduler stored, so that the notifier decides a group's
 * message and the drained queue at the end of each write ({@link dev.gq.core.notify.NoticeFacts#endsWrite}),
 * whether it reads the journal after each write or after several. The Scheduler says each one once
 * it is stored, before it stores the next; the notifier adds the last event it finds stored (a
 * write is stored whole or not at all). Ends of writes stored before the daemon started are not
 * known but that last one: those writes are decided as one. Any thread.
 */
public final class WriteEnds {
  /** How many ends are kept ahead of the notifier; older ones are dropped (their writes are decided as one). */
  private static final int KEPT = 100_000;

  private final ConcurrentSkipListSet<Long> ends = new ConcurrentSkipListSet<>();

  /** The write whose last event is {@code seq} is stored. */
  public void stored(long seq) {
    ends.add(seq);
    if (seq % 1024 == 0) while (ends.size() > KEPT) ends.pollFirst();
  }

  boolean endsWrite(long seq) {
    return ends.contains(seq);
  }

  /** Every event up to {@code seq} is decided: their writes' ends are not asked again. */
  void decided(long seq) {
    ends.headSet(seq, true).clear();
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.ledger.Ledger;
import dev.gq.persistence.LedgerSnapshot;
import org.apache.pekko.persistence.typed.SnapshotAdapter;

/**
 * How the Scheduler's ledger is stored in a snapshot: as the compact {@link LedgerSnapshot}. A
 * snapshot stored as a whole ledger (before live jobs were kept without their command) still
 * loads, and loses the commands on the way in.
 */
final class SnapshotShape implements SnapshotAdapter<Ledger> {
  @Override
  public Object toJournal(Ledger state) {
    return LedgerSnapshot.of(state);
  }

  @Override
  public Ledger fromJournal(Object from) {
    return from instanceof LedgerSnapshot s ? s.ledger() : ((Ledger) from).withoutCommands();
  }
}

package dev.gq.actors.projector;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.QueuePaused;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProjectorMergeTest {
  private static LedgerEvent e(int n) {
    return new QueuePaused(Instant.ofEpochSecond(n));
  }

  @Test
  void contiguousWritesBecomeOneInOrderAndAGapStartsAnother() {
    var writes = List.of(
        new Projector.Project(5, List.of(e(5), e(6))),
        new Projector.Project(7, List.of(e(7))),
        new Projector.Project(8, List.of(e(8), e(9))),
        new Projector.Project(12, List.of(e(12))),
        new Projector.Project(13, List.of(e(13))));
    var merged = Projector.merged(writes);
    assertEquals(List.of(new Projector.Project(5, List.of(e(5), e(6), e(7), e(8), e(9))),
        new Projector.Project(12, List.of(e(12), e(13)))), merged);
  }

  @Test
  void oneWriteStaysAsItIs() {
    var one = new Projector.Project(1, List.of(e(1)));
    assertEquals(List.of(one), Projector.merged(List.of(one)));
    assertEquals(List.of(), Projector.merged(List.of()));
  }
}

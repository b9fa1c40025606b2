package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.JobState;
import org.junit.jupiter.api.Test;

class KeyTakenTest {
  @Test
  void aSkipSaysWhichJobHoldsTheKey() {
    String m = KeyTaken.message("lr=0.1", JobState.DONE, 7);
    assertEquals("Skipped: key 'lr=0.1' is already DONE as job 7", m);
    assertEquals("key 'lr=0.1' is already DONE as job 7", KeyTaken.reasonOf(m));
    assertEquals("its key is already RUNNING as job 3", KeyTaken.reason(null, JobState.RUNNING, 3));
  }
}

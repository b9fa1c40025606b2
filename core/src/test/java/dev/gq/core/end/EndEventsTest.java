package dev.gq.core.end;

import static dev.gq.core.Fixtures.holding;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.LedgerEvent.JobExited;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The event of a job's end as its runner saw it: when the job ended. */
class EndEventsTest {

  @Test
  void aJobEndsWhenItsExitRecordWasWrittenNotWhenTheRunnerSawIt() {
    Job j = holding(1, JobState.RUNNING, 0);
    Instant seen = j.startTime().plusSeconds(600);
    Instant written = seen.minusSeconds(8);
    EndSeen s = new EndSeen(ExitRecord.exited(0).writtenAt(written), 0, null, false, null, null);
    assertEquals(written, assertInstanceOf(JobExited.class, EndEvents.of(j, s, seen)).at());
    assertEquals(seen, EndEvents.of(j, EndSeen.exited(0), seen).at(), "a record of unknown time: when it was seen");
  }
}

package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LineageFact;
import dev.gq.persistence.Database;
import dev.gq.persistence.JobHistory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's facts a submit or retry is decided on. */
class SweepRequestsTest {
  @TempDir Path dir;

  @Test
  void aLiveJobsLineageIsReadTooAsItMayEndBeforeTheDecision() throws Exception {
    Path file = dir.resolve("gq.db");
    Database.prepare(file);
    try (JobHistory history = JobHistory.open(file)) {
      JobSpec spec = new JobSpec(List.of("python", "train.py"), "/w", Map.of(), 1, null, null, null);
      history.apply(1, List.of(new LedgerEvent.JobSubmitted(7, spec, "t7", "/d/7.log", null, Instant.EPOCH)));
      assertEquals(Map.of(7L, new LineageFact(7, 7, 7, JobState.WAITING)),
          new SweepRequests(history).facts(List.of(7L, 7L, 8L)));
    }
  }
}

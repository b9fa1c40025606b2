package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history never moves its offset over events it did not apply. */
class JobHistoryOffsetTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  @TempDir Path dir;

  private static LedgerEvent submitted(long id) {
    return new LedgerEvent.JobSubmitted(id, new JobSpec(List.of("true"), "/", Map.of(), 0, null, null, null),
        "tag-" + id, "/l/" + id, null, T);
  }

  @Test
  void eventsAfterAGapAreRefusedAndTheOffsetStays() throws Exception {
    Database.prepare(dir.resolve("gq.db"));
    try (JobHistory rs = JobHistory.open(dir.resolve("gq.db"))) {
      rs.apply(1, List.of(submitted(1)));
      assertThrows(SQLException.class, () -> rs.apply(3, List.of(submitted(3))));
      assertEquals(1, rs.offset());
      assertTrue(rs.job(3).isEmpty());
      rs.apply(2, List.of(submitted(2), submitted(3)));
      assertEquals(3, rs.offset());
      assertTrue(rs.job(3).isPresent());
    }
  }

  @Test
  void replayingEventsAlreadyAppliedChangesNothing() throws Exception {
    Database.prepare(dir.resolve("gq.db"));
    try (JobHistory rs = JobHistory.open(dir.resolve("gq.db"))) {
      rs.apply(1, List.of(submitted(1), submitted(2)));
      rs.apply(1, List.of(submitted(1), submitted(2)));
      assertEquals(2, rs.offset());
    }
  }
}

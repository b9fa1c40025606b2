package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history writes a job's row with an upsert, not INSERT OR REPLACE (which made SQLite keep a
 * statement journal of every page it changed, inside each history transaction), and a row written
 * again holds its new values, columns and document alike.
 */
class HistoryUpsertTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  @TempDir Path dir;

  @Test
  void theRowIsWrittenWithAnUpsert() {
    assertFalse(HistoryWrites.UPSERT.contains("REPLACE"));
    assertTrue(HistoryWrites.UPSERT.contains("ON CONFLICT (id) DO UPDATE SET"));
  }

  @Test
  void aRowWrittenAgainHoldsItsNewValuesInOnePlace() throws Exception {
    Path db = dir.resolve("gq.db");
    Database.prepare(db);
    try (JobHistory h = JobHistory.open(db)) {
      h.apply(1, List.of(new JobSubmitted(1, new JobSpec(List.of("t"), "/", Map.of(), 1, null, "g", "k"), "t1", "/l/1", null, T)));
      h.apply(2, List.of(new JobReserved(1, List.of(new GpuSlot("GPU-a", 0)), T.plusSeconds(1))));
      assertEquals(JobState.STARTING, h.job(1).orElseThrow().state());
    }
    try (Connection c = DriverManager.getConnection(Database.url(db)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), min(state), min(group_name), min(job_key), min(gpu_list) FROM jobs")) {
      rs.next();
      assertEquals(1, rs.getInt(1));
      assertEquals("STARTING", rs.getString(2));
      assertEquals("g", rs.getString(3));
      assertEquals("k", rs.getString(4));
      assertEquals("0=GPU-a", rs.getString(5));
    }
  }
}

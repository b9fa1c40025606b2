package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.JobState;
import dev.gq.core.report.JobSpan;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database written by the first schema is upgraded in place, its history kept and completed. */
class MigrationTest {
  @TempDir Path dir;

  private static String doc(long id, String state, Long retryOf) {
    return "{\"id\":" + id + ",\"spec\":{\"argv\":[\"true\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":0,\"name\":null,"
        + "\"group\":\"g\",\"key\":null},\"state\":\"" + state + "\",\"submitTime\":\"2026-11-29T10:00:00Z\","
        + "\"endTime\":\"2026-11-29T10:00:01Z\",\"gpus\":[],\"logPath\":\"/d/logs/" + id + ".log\",\"tag\":\"t\","
        + "\"retryOf\":" + retryOf + "}";
  }

  private static void versionOne(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement();
        InputStream in = Database.class.getResourceAsStream("schema-1.sql")) {
      for (String sql : new String(in.readAllBytes(), StandardCharsets.UTF_8).split(";\\s*\n")) {
        if (!sql.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("--"))) st.execute(sql);
      }
      st.execute("INSERT INTO gq_meta (key, value) VALUES ('schema_version', '1')");
      st.execute("INSERT INTO jobs (id, state, group_name, end_time, doc) VALUES (1, 'FAILED', 'g', '2026-11-29T10:00:01Z', '"
          + doc(1, "FAILED", null) + "')");
      st.execute("INSERT INTO jobs (id, state, group_name, end_time, doc) VALUES (2, 'DONE', 'g', '2026-11-29T10:00:01Z', '"
          + doc(2, "DONE", 1L) + "')");
    }
  }

  @Test
  void versionOneGainsTheRetryColumnFilledFromTheDocuments() throws Exception {
    Path file = dir.resolve("gq.db");
    versionOne(file);
    Database.prepare(file);
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      ResultSet v = st.executeQuery("SELECT value FROM gq_meta WHERE key = 'schema_version'");
      assertTrue(v.next());
      assertEquals(String.valueOf(Database.SCHEMA_VERSION), v.getString(1));
      ResultSet r = st.executeQuery("SELECT id, retry_of FROM jobs ORDER BY id");
      assertTrue(r.next());
      assertEquals(0, r.getLong(2));
      assertTrue(r.wasNull());
      assertTrue(r.next());
      assertEquals(1, r.getLong(2));
    }
    try (JobHistory rs = JobHistory.open(file)) {
      assertEquals(List.of(new GroupCounts("g", Map.of(JobState.DONE, 1), 1)), rs.groups(null));
      rs.apply(rs.offset() + 1, List.of(new dev.gq.core.ledger.LedgerEvent.JobsRemoved(List.of(1L), java.time.Instant.EPOCH)));
      assertEquals(List.of(2L), rs.refs(List.of(1L, 2L)).stream().map(JobRef::id).toList());
    }
  }

  @Test
  void versionTwoJobsGainTheColumnsAUsageReportReads() throws Exception {
    Path file = dir.resolve("gq.db");
    versionOne(file);
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      st.execute("INSERT INTO jobs (id, state, group_name, end_time, doc) VALUES (3, 'DONE', 'g', '2026-11-29T10:05:00.25Z', '"
          + doc(3, "DONE", null).replace("\"endTime\":\"2026-11-29T10:00:01Z\",\"gpus\":[]",
              "\"startTime\":\"2026-11-29T10:01:00.123456Z\",\"endTime\":\"2026-11-29T10:05:00.25Z\","
                  + "\"gpus\":[{\"uuid\":\"GPU-a\",\"index\":0},{\"uuid\":\"GPU-b\",\"index\":1}]") + "')");
    }
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      st.execute("INSERT INTO jobs (id, state, group_name, end_time, doc) VALUES (4, 'DONE', 'g', '2026-11-29T10:00:01Z', '"
          + doc(4, "DONE", null).replace("\"key\":null}", "\"key\":null,\"gpuNeed\":{\"vramMiB\":19074,\"types\":[],"
              + "\"share\":true,\"perGpu\":0}}") + "')");
    }
    Database.prepare(file);
    var jobs = new ArrayList<JobSpan>();
    UsageReads.jobs(file, java.time.Instant.parse("2026-11-29T00:00:00Z"),
        java.time.Instant.parse("2026-11-30T00:00:00Z"), jobs::add);
    var three = jobs.stream().filter(j -> j.id() == 3).findFirst().orElseThrow();
    assertEquals(java.time.Instant.parse("2026-11-29T10:00:00Z"), three.submit());
    assertEquals(java.time.Instant.parse("2026-11-29T10:01:00.123Z"), three.start());
    assertEquals(java.time.Instant.parse("2026-11-29T10:05:00.250Z"), three.end());
    assertEquals(List.of(new dev.gq.core.report.JobSpan.GpuRef("GPU-a", 0), new dev.gq.core.report.JobSpan.GpuRef("GPU-b", 1)),
        three.gpus());
    assertNull(three.share());
    var four = jobs.stream().filter(j -> j.id() == 4).findFirst().orElseThrow();
    assertEquals(new dev.gq.core.report.JobSpan.Share(19_074, 0), four.share());
    assertEquals(4, jobs.size());
  }

  @Test
  void aNewDatabaseIsAtTheLatestVersionAndPreparingAgainChangesNothing() throws Exception {
    Path file = dir.resolve("gq.db");
    Database.prepare(file);
    Database.prepare(file);
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      ResultSet v = st.executeQuery("SELECT value FROM gq_meta WHERE key = 'schema_version'");
      assertTrue(v.next());
      assertEquals(String.valueOf(Database.SCHEMA_VERSION), v.getString(1));
      assertTrue(st.executeQuery("SELECT count(*) FROM deleted_jobs").next());
    }
  }
}

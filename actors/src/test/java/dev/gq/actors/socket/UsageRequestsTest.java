package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageRows;
import dev.gq.persistence.Database;
import dev.gq.persistence.GpuSpans;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report's rows as the daemon hands them over: the first use counted before any row, the spans in
 * order of start, then the jobs; a plot's rows charged to the request first and refused in one line
 * beyond the whole budget, before a row is read.
 */
class UsageRequestsTest {
  private static final int MIB = 1 << 20;
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private static final int JOBS = 3000;
  private static final GpuReport NO_GPUS = new GpuReport(List.of(), "fake", true, null, Map.of(), Map.of(), 0);
  @TempDir Path dir;
  Path db;
  MachineRequests machine;

  @BeforeEach
  void setUp() throws Exception {
    db = dir.resolve("gq.db");
    Database.prepare(db);
    try (Connection c = DriverManager.getConnection(Database.url(db));
        PreparedStatement ps = c.prepareStatement("INSERT INTO jobs (id, state, group_name, doc, submit_ms, start_ms, end_ms,"
            + " gpu_list) VALUES (?, 'DONE', 'g', '{}', ?, ?, ?, ?)")) {
      c.setAutoCommit(false);
      for (int i = 1; i <= JOBS; i++) {
        long at = T0.plusSeconds(60L * i).toEpochMilli();
        ps.setLong(1, i);
        ps.setLong(2, at);
        ps.setLong(3, at + 1000);
        ps.setLong(4, at + 30_000);
        ps.setString(5, "0=GPU-a");
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    }
    GpuSpans.write(db, List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0.plusSeconds(30), T0.plusSeconds(40)),
        new GpuSpan("GPU-a", 0, GpuUse.JOBS, T0.plusSeconds(40), T0.plusSeconds(90_000))), T0);
    machine = new MachineRequests(null, null, db, null, null);
  }

  /** Records what it is handed, in order. */
  private static final class Recorder implements UsageRows {
    UsageFacts facts;
    final List<Object> rows = new ArrayList<>();

    @Override
    public void span(GpuSpan s) {
      rows.add(s);
    }

    @Override
    public void job(JobSpan j) {
      rows.add(j);
    }
  }

  @Test
  void theFactsComeFirstThenTheSpansInOrderOfStartThenEachJob() throws Exception {
    Recorder r = new Recorder();
    machine.usage(T0, T0.plusSeconds(86_400 * 3), false, NO_GPUS, f -> {
      r.facts = f;
      return r;
    });
    assertEquals(T0.plusSeconds(30), r.facts.firstUse(), "the first span started before the first job was submitted");
    assertEquals(2 + JOBS, r.rows.size());
    assertEquals(T0.plusSeconds(30), ((GpuSpan) r.rows.get(0)).start());
    assertTrue(r.rows.get(1) instanceof GpuSpan && r.rows.get(2) instanceof JobSpan);
  }

  @Test
  void aPlotLargerThanTheWholeBudgetIsRefusedBeforeAnyRowIsRead() throws Exception {
    FrameBudget budget = new FrameBudget(2 * MIB, MIB / 2, 100);
    try (FrameBudget.Lease lease = budget.lease()) {
      AnswerCharges.bind(lease);
      Recorder r = new Recorder();
      var e = assertThrows(ApiException.class, () -> machine.usage(T0, T0.plusSeconds(86_400 * 3), true, NO_GPUS, f -> r));
      assertTrue(e.getMessage().startsWith("cannot plot " + (JOBS + 2) + " jobs and GPU spans at once"), e.getMessage());
      assertEquals(List.of(), r.rows);
      machine.usage(T0, T0.plusSeconds(86_400 * 3), false, NO_GPUS, f -> r);
      assertEquals(2 + JOBS, r.rows.size(), "the same rows are read when they are folded, not kept");
      assertEquals(2 * MIB, budget.available(), "and charged nothing");
      r.rows.clear();
      machine.usage(T0, T0.plusSeconds(60L * 1000), true, NO_GPUS, f -> r);
      assertEquals(2 + 999, r.rows.size(), "a shorter period fits");
      assertEquals(2 * MIB - (2 + 999) * AnswerCharges.ROW_BYTES, budget.available());
    } finally {
      AnswerCharges.unbind();
    }
  }
}

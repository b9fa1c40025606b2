package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.JobExited;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.GpuUse;
import dev.gq.core.report.JobSpan;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a usage report reads: the jobs that touch its period, and the GPU spans kept bounded. */
class UsageStoreTest {
  static final Instant T0 = HistoryFixture.T0;
  @TempDir Path dir;
  Path file;

  @BeforeEach
  void setUp() throws Exception {
    file = dir.resolve("gq.db");
    Database.prepare(file);
  }

  @Test
  void jobsThatTouchThePeriodAreReadWithTheirTimesAndGpus() throws Exception {
    try (JobHistory rs = JobHistory.open(file)) {
      HistoryFixture h = new HistoryFixture(rs);
      h.ended(1, "old", null, 0, T0.plusSeconds(5));                 // ends before the period
      h.submit(2, "sweep", null);
      h.apply(new JobReserved(2, List.of(new GpuSlot("GPU-a", 0), new GpuSlot("GPU-b", 1)), T0.plusSeconds(60)),
          new JobExited(2, 1, "exit 1", T0.plusSeconds(3600)));
      h.submit(3, null, null);                                       // still waiting
    }
    List<JobSpan> jobs = jobs(T0.plusSeconds(10), T0.plus(Duration.ofDays(1)));
    jobs = jobs.stream().sorted(Comparator.comparingLong(JobSpan::id)).toList();
    assertEquals(List.of(2L, 3L), jobs.stream().map(JobSpan::id).toList());
    JobSpan two = jobs.get(0);
    assertEquals("sweep", two.group());
    assertEquals(JobState.FAILED, two.state());
    assertEquals(T0, two.submit());
    assertEquals(T0.plusSeconds(60), two.start());
    assertEquals(T0.plusSeconds(3600), two.end());
    assertEquals(List.of(new JobSpan.GpuRef("GPU-a", 0), new JobSpan.GpuRef("GPU-b", 1)), two.gpus());
    assertNull(jobs.get(1).start());
    assertEquals(List.of(), jobs(T0.plusSeconds(10), T0));
    assertEquals(new UsageReads.Extent(2, T0), UsageReads.extent(file, T0.plusSeconds(10), T0.plus(Duration.ofDays(1))));
    assertEquals(new UsageReads.Extent(0, null), UsageReads.extent(file, T0.plusSeconds(10), T0));
  }

  @Test
  void aSharedJobIsReadWithWhatItDeclaredOfEachCard() throws Exception {
    try (JobHistory rs = JobHistory.open(file)) {
      HistoryFixture h = new HistoryFixture(rs);
      h.apply(new JobSubmitted(4, HistoryFixture.spec("evals", null).withGpuNeed(GpuNeed.of(19_074, List.of(), true, 0)),
          "tag4", "/d/logs/4.log", null, T0));
      h.apply(new JobSubmitted(5, HistoryFixture.spec("evals", null).withGpuNeed(GpuNeed.of(0, List.of(), true, 4)),
          "tag5", "/d/logs/5.log", null, T0));
      h.ended(6, "train", null, 0, T0.plusSeconds(60));
    }
    var jobs = jobs(T0, T0.plus(Duration.ofDays(1))).stream().sorted(Comparator.comparingLong(JobSpan::id)).toList();
    assertEquals(new JobSpan.Share(19_074, 0), jobs.get(0).share());
    assertEquals(new JobSpan.Share(0, 4), jobs.get(1).share());
    assertNull(jobs.get(2).share());
  }

  @Test
  void aSpanWrittenAgainMovesItsEndAndReadsReturnThoseOverlappingThePeriod() throws Exception {
    GpuSpan idle = new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(30));
    GpuSpans.write(file, List.of(idle), T0);
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(90)),
        new GpuSpan("GPU-a", 0, GpuUse.OUTSIDE, T0.plusSeconds(90), T0.plusSeconds(100))), T0);
    List<GpuSpan> all = spans(T0, T0.plusSeconds(1000));
    assertEquals(2, all.size());
    assertEquals(T0.plusSeconds(90), all.get(0).end());
    assertEquals(GpuUse.OUTSIDE, all.get(1).use());
    assertEquals(1, spans(T0.plusSeconds(95), T0.plusSeconds(1000)).size());
    assertEquals(0, spans(T0.plusSeconds(100), T0.plusSeconds(1000)).size());
    assertEquals(new UsageReads.Extent(2, T0), GpuSpans.extent(file, T0, T0.plusSeconds(1000)));
    assertEquals(new UsageReads.Extent(1, T0.plusSeconds(90)), GpuSpans.extent(file, T0.plusSeconds(95), T0.plusSeconds(1000)));
    assertEquals(new UsageReads.Extent(0, null), GpuSpans.extent(file, T0.plusSeconds(100), T0.plusSeconds(1000)));
  }

  @Test
  void spansOlderThanTheKeepAreDroppedOnTheNextWrite() throws Exception {
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(30))), T0);
    Instant later = T0.plus(GpuSpans.KEEP).plusSeconds(60);
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.JOBS, later, later.plusSeconds(1))), later);
    List<GpuSpan> left = spans(Instant.EPOCH, later.plusSeconds(10));
    assertEquals(List.of(GpuUse.JOBS), left.stream().map(GpuSpan::use).toList());
  }

  @Test
  void jobsAreHandedOverOneAtATimeAndAnUnreadableRowIsSkippedButCounted() throws Exception {
    try (JobHistory rs = JobHistory.open(file)) {
      HistoryFixture h = new HistoryFixture(rs);
      for (long id = 1; id <= 1200; id++) h.ended(id, "g" + id % 3, null, 0, T0.plusSeconds(60 + id));
    }
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      st.execute("UPDATE jobs SET state = 'NEWER', submit_ms = submit_ms - 1000 WHERE id = 7");   // a state this gq does not know
    }
    Instant from = T0.plusSeconds(10);
    Instant to = T0.plus(Duration.ofDays(1));
    List<Long> ids = new ArrayList<>();
    UsageReads.jobs(file, from, to, j -> ids.add(j.id()));
    assertEquals(1199, ids.size());
    assertFalse(ids.contains(7L));
    assertEquals(new UsageReads.Extent(1200, T0.minusSeconds(1)), UsageReads.extent(file, from, to),
        "the count and first submission are the rows', read or not");
  }

  @Test
  void aReaderThatStopsLeavesTheDatabaseFree() throws Exception {
    try (JobHistory rs = JobHistory.open(file)) {
      HistoryFixture h = new HistoryFixture(rs);
      for (long id = 1; id <= 50; id++) h.submit(id, "g", null);
    }
    List<Long> seen = new ArrayList<>();
    var e = assertThrows(IllegalStateException.class, () -> UsageReads.jobs(file, T0, T0.plus(Duration.ofDays(1)), j -> {
      seen.add(j.id());
      if (seen.size() == 3) throw new IllegalStateException("enough");
    }));
    assertEquals("enough", e.getMessage());
    assertEquals(3, seen.size(), "no row is read past the one that stopped the reader");
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(30))), T0);
    assertEquals(1, spans(T0, T0.plusSeconds(60)).size());
  }

  @Test
  void spansAreHandedOverInOrderOfStart() throws Exception {
    GpuSpans.write(file, List.of(new GpuSpan("GPU-b", 1, GpuUse.IDLE, T0.plusSeconds(50), T0.plusSeconds(60)),
        new GpuSpan("GPU-a", 0, GpuUse.JOBS, T0.plusSeconds(10), T0.plusSeconds(70)),
        new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0.plusSeconds(70), T0.plusSeconds(80))), T0);
    assertEquals(List.of(T0.plusSeconds(10), T0.plusSeconds(50), T0.plusSeconds(70)),
        spans(T0, T0.plusSeconds(100)).stream().map(GpuSpan::start).toList());
  }

  private List<JobSpan> jobs(Instant from, Instant to) throws SQLException {
    List<JobSpan> out = new ArrayList<>();
    UsageReads.jobs(file, from, to, out::add);
    return out;
  }

  private List<GpuSpan> spans(Instant from, Instant to) throws SQLException {
    List<GpuSpan> out = new ArrayList<>();
    GpuSpans.read(file, from, to, out::add);
    return out;
  }
}

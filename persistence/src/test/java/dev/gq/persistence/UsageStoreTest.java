package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
import java.time.Duration;
import java.time.Instant;
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
    List<JobSpan> jobs = UsageReads.jobs(file, T0.plusSeconds(10), T0.plus(Duration.ofDays(1)));
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
    assertEquals(List.of(), UsageReads.jobs(file, T0.plusSeconds(10), T0).stream().toList());
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
    var jobs = UsageReads.jobs(file, T0, T0.plus(Duration.ofDays(1))).stream().sorted(Comparator.comparingLong(JobSpan::id)).toList();
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
    List<GpuSpan> all = GpuSpans.read(file, T0, T0.plusSeconds(1000));
    assertEquals(2, all.size());
    assertEquals(T0.plusSeconds(90), all.get(0).end());
    assertEquals(GpuUse.OUTSIDE, all.get(1).use());
    assertEquals(1, GpuSpans.read(file, T0.plusSeconds(95), T0.plusSeconds(1000)).size());
    assertEquals(0, GpuSpans.read(file, T0.plusSeconds(100), T0.plusSeconds(1000)).size());
  }

  @Test
  void spansOlderThanTheKeepAreDroppedOnTheNextWrite() throws Exception {
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0, T0.plusSeconds(30))), T0);
    Instant later = T0.plus(GpuSpans.KEEP).plusSeconds(60);
    GpuSpans.write(file, List.of(new GpuSpan("GPU-a", 0, GpuUse.JOBS, later, later.plusSeconds(1))), later);
    List<GpuSpan> left = GpuSpans.read(file, Instant.EPOCH, later.plusSeconds(10));
    assertEquals(List.of(GpuUse.JOBS), left.stream().map(GpuSpan::use).toList());
  }
}

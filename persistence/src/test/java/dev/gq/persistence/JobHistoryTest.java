package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.JobCancelled;
import dev.gq.core.ledger.LedgerEvent.JobsRemoved;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobHistoryTest {
  static final Instant T0 = HistoryFixture.T0;
  @TempDir Path dir;
  JobHistory rs;
  HistoryFixture h;

  @BeforeEach
  void setUp() throws Exception {
    Database.prepare(dir.resolve("gq.db"));
    rs = JobHistory.open(dir.resolve("gq.db"));
    h = new HistoryFixture(rs);
  }

  @AfterEach
  void tearDown() throws Exception {
    rs.close();
  }

  /** sweep: lineage 1 failed twice then succeeded as 6; 2 done; 3 waiting. other: 5 cancelled. */
  void sweep() throws SQLException {
    h.ended(1, "sweep", null, 3, T0.plusSeconds(10));
    h.ended(2, "sweep", null, 0, T0.plusSeconds(11));
    h.submit(3, "sweep", null);
    h.ended(4, "sweep", 1L, 3, T0.plusSeconds(12));
    h.cancelled(5, "other");
    h.ended(6, "sweep", 1L, 0, T0.plusSeconds(13));
    h.submit(7, null, null);
  }

  @Test
  void theCommittedOffsetIsTheStoredOneAndAFailedWriteLeavesIt() throws Exception {
    assertEquals(0, rs.committed());
    sweep();
    assertEquals(rs.offset(), rs.committed());
    long before = rs.committed();
    assertThrows(SQLException.class, () -> rs.apply(h.seq + 1,
        List.of(new dev.gq.core.ledger.LedgerEvent.JobReserved(99, List.of(), T0))));
    assertEquals(before, rs.committed(), "a rolled back write commits nothing");
    assertEquals(rs.offset(), rs.committed());
  }

  @Test
  void aRowKeptInMemoryIsTheRowAsStored() throws Exception {
    sweep();
    h.apply(new dev.gq.core.ledger.LedgerEvent.JobReserved(7, List.of(new dev.gq.core.job.GpuSlot("GPU-b", 1)), T0));
    try (JobHistory fresh = JobHistory.open(dir.resolve("gq.db"))) {
      // a launch reads the rows kept in memory; a fresh history has none and reads the file
      for (long id = 1; id <= 7; id++) assertEquals(fresh.job(id), rs.launchRead(id), "job " + id + " read back from the file");
    }
  }

  @Test
  void aRowKeptInMemoryFromARolledBackWriteIsNotUsedForTheNextEvent() throws Exception {
    h.submit(3, "sweep", null);
    var reserved = new dev.gq.core.ledger.LedgerEvent.JobReserved(3, List.of(new dev.gq.core.job.GpuSlot("GPU-a", 0)), T0);
    var unknown = new dev.gq.core.ledger.LedgerEvent.JobReserved(99, List.of(), T0);
    // the reservation is applied in the transaction, then the unknown job rolls the whole write back
    assertThrows(SQLException.class, () -> rs.apply(h.seq + 1, List.of(reserved, unknown)));
    assertEquals(JobState.WAITING, rs.job(3).orElseThrow().state(), "nothing of the failed write is stored");
    var launched = new dev.gq.core.ledger.LedgerEvent.JobLaunched(3, null, T0.plusSeconds(1));
    h.apply(launched);
    Job expected = dev.gq.core.ledger.JobTransitions.next(
        dev.gq.core.ledger.JobTransitions.next(null, (dev.gq.core.ledger.LedgerEvent.JobEvent) h.applied.get(0)), launched);
    assertEquals(expected, rs.job(3).orElseThrow(), "the launch applied to the stored row, not to the one rolled back");
    assertTrue(rs.job(3).orElseThrow().gpus().isEmpty());
  }

  @Test
  void aLaunchReadsItsJobWhileTheHistoryIsBusyWriting() throws Exception {
    h.submit(3, "sweep", null);
    java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread writer = new Thread(() -> {
      synchronized (rs) {  // as apply() holds it while it writes a page of events
        holding.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    writer.start();
    try {
      holding.await();
      var read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return rs.launchRead(3);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      assertEquals(3L, read.get(10, java.util.concurrent.TimeUnit.SECONDS).orElseThrow().id());
      assertTrue(rs.launchRead(99).isEmpty());
    } finally {
      release.countDown();
      writer.join();
    }
  }

  @Test
  void aJobClosedFromItsExitRecordWithoutALaunchKeepsThePidTheRecordNamed() throws Exception {
    h.submit(1, null, null);
    h.apply(new dev.gq.core.ledger.LedgerEvent.JobReserved(1, List.of(), T0),
        new dev.gq.core.ledger.LedgerEvent.JobExited(1, 0, null, T0.plusSeconds(1), 4321L));
    Job j = rs.job(1).orElseThrow();
    assertEquals(JobState.DONE, j.state());
    assertEquals(4321L, j.pid());
    assertEquals(null, j.identity(), "shown, never an identity to signal");
  }

  @Test
  void groupsCountOnlyTheLatestAttemptOfEachLineage() throws Exception {
    sweep();
    List<GroupCounts> all = rs.groups(null);
    assertEquals(List.of("other", "sweep"), all.stream().map(GroupCounts::group).toList());
    GroupCounts sweep = all.get(1);
    assertEquals(Map.of(JobState.DONE, 2, JobState.WAITING, 1), sweep.counts());
    assertEquals(2, sweep.retried());
    assertEquals(List.of(new GroupCounts("other", Map.of(JobState.CANCELLED, 1), 0)), rs.groups("other"));
    assertEquals(List.of(), rs.groups("nope"));
  }

  @Test
  void everyGroupIsCountedAgainOnlyOnceTheHistoryHasMoved() throws Exception {
    sweep();
    List<GroupCounts> first = rs.groups(null);
    assertSame(first, rs.groups(null), "nothing committed since: the same count");
    h.submit(8, "other", null);
    List<GroupCounts> after = rs.groups(null);
    assertEquals(Map.of(JobState.CANCELLED, 1, JobState.WAITING, 1), after.get(0).counts(), "a submit is counted at once");
    h.apply(new dev.gq.core.ledger.LedgerEvent.JobsRemoved(List.of(5L), T0.plusSeconds(20)));
    assertEquals(Map.of(JobState.WAITING, 1), rs.groups(null).get(0).counts(), "so is a removal");
  }

  @Test
  void aCellSubmittedAgainUnderItsKeyCountsOnce() throws Exception {
    h.ended(1, "sweep", "cell/a", null, 3, T0.plusSeconds(1));
    h.ended(2, "sweep", "cell/b", null, 0, T0.plusSeconds(2));
    h.ended(3, "sweep", "cell/a", null, 0, T0.plusSeconds(3));
    assertEquals(List.of(new GroupCounts("sweep", Map.of(JobState.DONE, 2), 1)), rs.groups("sweep"));
    var failedLatest = new JobQuery(List.of(), Set.of(JobState.FAILED), "sweep", 0, true, 0, null);
    assertEquals(List.of(), rs.jobs(failedLatest));
  }

  @Test
  void aGroupIsCountedAsItWasBeforeItsLaterJobsWereStored() throws Exception {
    h.ended(1, "sweep", "cell/a", null, 3, T0.plusSeconds(1));
    h.ended(2, "sweep", "cell/b", null, 0, T0.plusSeconds(2));
    h.ended(3, "sweep", "cell/a", null, 0, T0.plusSeconds(3));
    assertEquals(List.of(new GroupCounts("sweep", Map.of(JobState.FAILED, 1, JobState.DONE, 1), 0)), rs.groups("sweep", 3),
        "before job 3 was stored, cell/a's first attempt was its latest");
    assertEquals(rs.groups("sweep"), rs.groups("sweep", Long.MAX_VALUE));
    assertEquals(List.of(), rs.groups("sweep", 1));
    assertEquals(rs.offset(), (long) rs.<Long>still(at -> at), "the offset the reads see");
  }

  @Test
  void latestOnlyLeavesOutReplacedAttempts() throws Exception {
    sweep();
    var q = new JobQuery(List.of(), Set.of(JobState.FAILED, JobState.DONE), "sweep", 0, true, 0, null);
    assertEquals(List.of(6L, 2L), rs.jobs(q).stream().map(Job::id).toList());
    var all = new JobQuery(List.of(), Set.of(JobState.FAILED), "sweep", 0);
    assertEquals(List.of(4L, 1L), rs.jobs(all).stream().map(Job::id).toList());
  }

  @Test
  void pagesNewestFirstBelowAnId() throws Exception {
    sweep();
    var page = new JobQuery(List.of(), Set.of(), null, 3, false, 6, null);
    assertEquals(List.of(5L, 4L, 3L), rs.jobs(page).stream().map(Job::id).toList());
    assertEquals(5, rs.count(new JobQuery(List.of(), Set.of(), null, 1, false, 6, null)));
  }

  @Test
  void pagesOfSeveralStatesAreTheWholeListingNewestFirstAPageAtATime() throws Exception {
    sweep();
    Set<JobState> states = Set.of(JobState.FAILED, JobState.DONE, JobState.WAITING, JobState.CANCELLED);
    var whole = rs.page(new JobQuery(List.of(), states, null, 0)).jobs().stream().map(Job::id).toList();
    assertEquals(List.of(7L, 6L, 5L, 4L, 3L, 2L, 1L), whole);
    List<Long> paged = new ArrayList<>();
    for (long below = 0; ; ) {
      var page = rs.page(new JobQuery(List.of(), states, null, 2, false, below, null));
      page.jobs().forEach(j -> paged.add(j.id()));
      if (page.rows() < 2) break;
      below = page.lowestId();
    }
    assertEquals(whole, paged);
    assertEquals(List.of(6L, 4L), rs.page(new JobQuery(List.of(), states, "sweep", 2, false, 7, null)).jobs().stream()
        .map(Job::id).toList(), "with a group and below an id");
  }

  @Test
  void aListingLeavesEachEnvironmentInTheDatabase() throws Exception {
    var spec = new dev.gq.core.job.JobSpec(List.of("python", "train.py"), "/w", Map.of("HOME", "/root", "PATH", "/bin"), 1, null, "g", null);
    h.apply(new dev.gq.core.ledger.LedgerEvent.JobSubmitted(1, spec, "tag1", "/d/logs/1.log", null, T0));
    var all = new JobQuery(List.of(), Set.of(), null, 0, false, 0, null);
    Job listed = rs.listed(all).get(0);
    assertEquals(Map.of(), listed.spec().env());
    assertEquals(List.of("python", "train.py"), listed.spec().argv());
    assertEquals("g", listed.spec().group());
    assertEquals(rs.jobs(all).get(0).submitTime(), listed.submitTime());
    assertEquals(spec.env(), rs.jobs(all).get(0).spec().env(), "the stored document keeps it");
    assertEquals(spec.env(), rs.job(1).orElseThrow().spec().env());
  }

  @Test
  void endedBeforeNeverSelectsAJobThatEndedAfterTheCutoff() throws Exception {
    h.ended(1, null, null, 0, Instant.parse("2026-11-29T09:59:59.9Z"));
    h.ended(2, null, null, 0, Instant.parse("2026-11-29T10:00:00.5Z"));
    h.ended(3, null, null, 0, Instant.parse("2026-11-29T10:00:01Z"));
    var q = new JobQuery(List.of(), Set.of(), null, 0, false, 0, Instant.parse("2026-11-29T10:00:00.7Z"));
    assertEquals(List.of(1L), rs.refs(q).stream().map(JobRef::id).toList());
    assertEquals("/d/logs/1.log", rs.refs(q).get(0).logPath());
  }

  @Test
  void aRemovalDeletesOnlyEndedRowsAndLateEventsOfDeletedOnesAreSkipped() throws Exception {
    sweep();
    h.apply(new JobsRemoved(List.of(1L, 3L, 5L, 99L), T0));
    assertEquals(List.of(2L, 3L, 4L, 6L, 7L), rs.refs(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L)).stream().map(JobRef::id).toList());
    h.apply(new JobCancelled(5, "late", T0));
    assertThrows(SQLException.class, () -> h.apply(new JobCancelled(42, "never existed", T0)));
    assertEquals(JobState.WAITING, rs.job(3).orElseThrow().state());
  }

  @Test
  void deletingManyIdsWorksInChunks() throws Exception {
    for (long id = 1; id <= 1200; id++) h.cancelled(id, "big");
    List<Long> ids = java.util.stream.LongStream.rangeClosed(1, 1200).boxed().toList();
    h.apply(new JobsRemoved(ids, T0));
    assertEquals(List.of(), rs.refs(ids));
    assertTrue(rs.groups("big").isEmpty());
  }

  @Test
  void anUnreadableRowIsSkippedAndNamedInsteadOfFailingTheList() throws Exception {
    sweep();
    try (var c = java.sql.DriverManager.getConnection(Database.url(dir.resolve("gq.db"))); var st = c.createStatement()) {
      st.execute("UPDATE jobs SET doc = '{\"id\": 4, \"spec\": ' WHERE id = 4");
      st.execute("UPDATE jobs SET doc = '{\"id\": 99}' WHERE id = 2");
    }
    JobQuery all = new JobQuery(List.of(), Set.of(), null, 0);
    assertThrows(SQLException.class, () -> rs.jobs(all), "the plain list still refuses");
    dev.gq.core.job.JobPage page = rs.page(all);
    assertEquals(List.of(7L, 6L, 5L, 3L, 1L), page.jobs().stream().map(Job::id).toList());
    assertEquals(List.of(4L, 2L), page.unreadable());
    assertEquals(7, page.rows());
    assertEquals(1, page.lowestId());
    dev.gq.core.job.JobPage next = rs.page(new JobQuery(List.of(), Set.of(), null, 3, false, 5, null));
    assertEquals(List.of(3L), next.jobs().stream().map(Job::id).toList());
    assertEquals(List.of(4L, 2L), next.unreadable());
    assertEquals(2, next.lowestId(), "the next page starts below the skipped row too");
  }

  @Test
  void aListingShowsEveryRowAsLastWrittenEvenAfterAnEarlierListingOfIt() throws Exception {
    sweep();
    JobQuery all = new JobQuery(List.of(), Set.of(), null, 0);
    assertEquals(JobState.WAITING, byId(rs.page(all).jobs(), 3).state());
    h.apply(new JobCancelled(3, "cancelled before it started", T0.plusSeconds(20)));
    assertEquals(JobState.CANCELLED, byId(rs.page(all).jobs(), 3).state());
    h.apply(new JobsRemoved(List.of(3L, 5L), T0.plusSeconds(21)));
    assertEquals(List.of(7L, 6L, 4L, 2L, 1L), rs.page(all).jobs().stream().map(Job::id).toList());
  }

  @Test
  void aFailedWriteLeavesTheListingAsStored() throws Exception {
    sweep();
    JobQuery all = new JobQuery(List.of(), Set.of(), null, 0);
    assertEquals(JobState.WAITING, byId(rs.page(all).jobs(), 7).state());
    // the cancel of 7 and a transition of a job the history never had: the whole page is rolled back
    assertThrows(SQLException.class, () -> rs.apply(h.seq + 1,
        List.of(new JobCancelled(7, "cancelled", T0.plusSeconds(20)), new JobCancelled(42, "cancelled", T0.plusSeconds(20)))));
    assertEquals(JobState.WAITING, byId(rs.page(all).jobs(), 7).state());
    assertEquals(JobState.WAITING, rs.job(7).orElseThrow().state());
  }

  @Test
  void aListingLongerThanTheDecodedRowsKeptIsWholeAndInOrder() throws Exception {
    int n = JobHistory.LISTING_CACHE + 300;
    List<dev.gq.core.ledger.LedgerEvent> events = new java.util.ArrayList<>();
    for (long id = 1; id <= n; id++)
      events.add(new dev.gq.core.ledger.LedgerEvent.JobSubmitted(id, HistoryFixture.spec("q", null), "t" + id, "/d/" + id, null, T0));
    h.apply(events.toArray(dev.gq.core.ledger.LedgerEvent[]::new));
    JobQuery all = new JobQuery(List.of(), Set.of(), null, 0);
    for (int round = 0; round < 2; round++) {
      List<Job> jobs = rs.page(all).jobs();
      assertEquals(n, jobs.size());
      assertEquals(n, jobs.get(0).id());
      assertEquals(1, jobs.get(n - 1).id());
      assertEquals("/d/" + n, jobs.get(0).logPath());
    }
  }

  private static Job byId(List<Job> jobs, long id) {
    return jobs.stream().filter(j -> j.id() == id).findFirst().orElseThrow();
  }
}

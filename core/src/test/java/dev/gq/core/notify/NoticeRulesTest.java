package dev.gq.core.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NoticeRulesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * The facts right after the events decided, held in maps (set by each test as its events go), and
   * {@code writeEnd}: the events from it on each end their write; those before it are in one write with it.
   */
  static class Facts implements NoticeFacts {
    final Map<Long, JobFacts> jobs = new HashMap<>();
    final Map<String, GroupFacts> groups = new HashMap<>();
    long live;
    int timesAsked;
    Duration failFastWithin = Duration.ZERO;
    long writeEnd;

    @Override public Optional<JobFacts> job(long id) { return Optional.ofNullable(jobs.get(id)); }
    @Override public Optional<GroupFacts> group(String g, long seq) { return Optional.ofNullable(groups.get(g)); }
    @Override public GroupFacts times(GroupFacts g, long seq) { timesAsked++; return g; }
    @Override public long liveJobs(long seq) { return live; }
    @Override public Duration failFastWithin() { return failFastWithin; }
    @Override public boolean endsWrite(long seq) { return seq >= writeEnd; }
  }

  private static JobFacts job(long id, String group, JobState s, Duration ran, String asked) {
    return new JobFacts(id, "train.py", group, s, T0, T0.plus(ran), s == JobState.DONE ? 0 : 1,
        s == JobState.DONE ? null : "exit status 1", asked);
  }

  private static LedgerEvent exited(long id) {
    return new LedgerEvent.JobExited(id, 0, null, T0);
  }

  @Test
  void aSweepWhoseLastJobsEndInOneMomentIsAnnouncedOnceWithItsCountsAndSpan() {
    Facts f = new Facts();
    f.jobs.put(19L, job(19, "xsum-ablation", JobState.DONE, Duration.ofHours(1), null));
    f.jobs.put(20L, job(20, "xsum-ablation", JobState.FAILED, Duration.ofHours(1), null));
    f.groups.put("xsum-ablation", new GroupFacts("xsum-ablation", Map.of(JobState.DONE, 18, JobState.FAILED, 2), T0,
        T0.plus(Duration.ofMinutes(372))));
    f.live = 3; // other groups still run
    f.writeEnd = 101; // both ends in one write
    var first = NoticeRules.decide(100, exited(19), f, NotifierMemory.EMPTY);
    var second = NoticeRules.decide(101, exited(20), f, first.memory());
    List<Notice> groupNotices = new java.util.ArrayList<>();
    for (var o : List.of(first, second))
      o.notices().stream().filter(n -> n.kind() == NoticeKind.GROUP).forEach(groupNotices::add);
    assertEquals(1, groupNotices.size());
    assertEquals("xsum-ablation: 18 DONE, 2 FAILED in 6h12m", groupNotices.get(0).text());
    assertEquals(NoticeKind.FAILED, second.notices().get(0).kind());
  }

  @Test
  void aGroupWithAJobStillWaitingIsNotAnnouncedAndIsAgainAfterMoreOfItEnded() {
    Facts f = new Facts();
    f.live = 1;
    f.jobs.put(1L, job(1, "g", JobState.DONE, Duration.ofMinutes(5), null));
    f.groups.put("g", new GroupFacts("g", Map.of(JobState.DONE, 1, JobState.WAITING, 1), T0, T0));
    var o = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY);
    assertTrue(o.notices().stream().noneMatch(n -> n.kind() == NoticeKind.GROUP), o.toString());
    f.groups.put("g", new GroupFacts("g", Map.of(JobState.DONE, 2), T0, T0));
    var done = NoticeRules.decide(2, exited(1), f, o.memory());
    assertEquals(1, done.notices().stream().filter(n -> n.kind() == NoticeKind.GROUP).count());
    f.groups.put("g", new GroupFacts("g", Map.of(JobState.DONE, 3), T0, T0)); // a retry joined and ended
    var again = NoticeRules.decide(3, exited(1), f, done.memory());
    assertEquals("g: 3 DONE in 0s", again.notices().stream().filter(n -> n.kind() == NoticeKind.GROUP).findFirst().orElseThrow().text());
  }

  @Test
  void aFailFastHoldIsAnnouncedAndAUsersHoldIsNot() {
    var auto = NoticeRules.decide(5, new LedgerEvent.GroupHeld("sw", "3 jobs in a row failed", true, T0), new Facts(),
        NotifierMemory.EMPTY);
    assertEquals(NoticeKind.HELD, auto.notices().get(0).kind());
    assertTrue(auto.notices().get(0).text().startsWith("group sw held by fail-fast: 3 jobs in a row failed"));
    var byUser = NoticeRules.decide(6, new LedgerEvent.GroupHeld("sw", "by the user", false, T0), new Facts(),
        NotifierMemory.EMPTY);
    assertEquals(List.of(), byUser.notices());
  }

  @Test
  void theQueueDrainsOnceUntilSomethingIsQueuedAgain() {
    Facts f = new Facts();
    f.jobs.put(1L, job(1, null, JobState.DONE, Duration.ofMinutes(1), null));
    f.jobs.put(2L, job(2, null, JobState.FAILED, Duration.ofMinutes(1), null));
    f.live = 1;
    var a = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY);
    assertTrue(a.notices().stream().noneMatch(n -> n.kind() == NoticeKind.DRAINED));
    f.live = 0;
    var b = NoticeRules.decide(2, exited(2), f, a.memory());
    Notice drained = b.notices().stream().filter(n -> n.kind() == NoticeKind.DRAINED).findFirst().orElseThrow();
    assertEquals("queue drained: 1 DONE, 1 FAILED", drained.text());
    var repeat = NoticeRules.decide(3, new LedgerEvent.JobInterrupted(2, "gone", T0), f, b.memory());
    assertTrue(repeat.notices().stream().noneMatch(n -> n.kind() == NoticeKind.DRAINED));
    var queued = NoticeRules.decide(4, new LedgerEvent.JobSubmitted(3, null, "t", "l", null, T0), f, repeat.memory());
    f.jobs.put(3L, job(3, null, JobState.DONE, Duration.ofMinutes(1), null));
    var again = NoticeRules.decide(5, exited(3), f, queued.memory());
    assertEquals("queue drained: 1 DONE",
        again.notices().stream().filter(n -> n.kind() == NoticeKind.DRAINED).findFirst().orElseThrow().text());
  }

  @Test
  void aFailedJobsMessageNamesItsStateRunTimeAndReason() {
    Facts f = new Facts();
    f.live = 1;
    f.jobs.put(7L, job(7, "sw", JobState.TIMEOUT, Duration.ofMinutes(90), null));
    Notice n = NoticeRules.decide(9, new LedgerEvent.JobTimedOut(7, 143, "ran past 1h30m", T0), f, NotifierMemory.EMPTY)
        .notices().get(0);
    assertEquals(NoticeKind.FAILED, n.kind());
    assertEquals("job 7 (train.py, group sw) TIMEOUT after 1h30m: exit status 1", n.text());
    assertEquals(9, n.seq());
  }

  @Test
  void anEndStillLiveInTheHistoryOrRemovedFromItSaysNothing() {
    Facts f = new Facts();
    f.live = 1;
    assertEquals(List.of(), NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY).notices());
    f.jobs.put(1L, job(1, null, JobState.ORPHANED, Duration.ZERO, null));
    assertEquals(List.of(), NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY).notices());
  }

  @Test
  void aCancelledSweepReadsItsJobsForTheGroupsSpanOnceNotOncePerJob() {
    Facts f = new Facts();
    f.live = 0;
    int n = 500;
    for (long id = 1; id <= n; id++) f.jobs.put(id, job(id, "big", JobState.CANCELLED, Duration.ZERO, null));
    f.writeEnd = n; // one write cancels them all
    f.groups.put("big", new GroupFacts("big", Map.of(JobState.CANCELLED, n), null, null));
    NotifierMemory m = NotifierMemory.EMPTY;
    int groupNotices = 0;
    for (long id = 1; id <= n; id++) {
      var o = NoticeRules.decide(id, new LedgerEvent.JobCancelled(id, "cancelled", T0), f, m);
      groupNotices += (int) o.notices().stream().filter(x -> x.kind() == NoticeKind.GROUP).count();
      m = o.memory();
    }
    assertEquals(1, groupNotices);
    assertEquals(1, f.timesAsked, "the group's jobs are read for its span once, for its one notice");
  }

  @Test
  void aLoneQuickJobDrainsTheQueueQuietlyAndALoneLongOneDoesNot() {
    Facts f = new Facts();
    f.live = 0;
    f.jobs.put(1L, job(1, null, JobState.DONE, Duration.ofSeconds(1), null));
    var quick = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY);
    assertTrue(quick.notices().stream().noneMatch(n -> n.kind() == NoticeKind.DRAINED), quick.toString());
    assertTrue(quick.memory().drained(), "drained, quietly: a later end does not announce it");
    var queued = NoticeRules.decide(2, new LedgerEvent.JobSubmitted(2, null, "t", "l", null, T0), f, quick.memory());
    f.jobs.put(2L, job(2, null, JobState.DONE, Duration.ofMinutes(5), null));
    var lengthy = NoticeRules.decide(3, exited(2), f, queued.memory());
    assertEquals("queue drained: 1 DONE",
        lengthy.notices().stream().filter(n -> n.kind() == NoticeKind.DRAINED).findFirst().orElseThrow().text());
  }

  @Test
  void aSweepThatWasTheWholeQueueIsOneMessageAndADrainCountsEveryEndOfItsWrite() {
    Facts f = new Facts();
    f.live = 0;
    f.writeEnd = 3; // one write ended the last jobs
    f.jobs.put(1L, job(1, "sw", JobState.DONE, Duration.ofMinutes(5), null));
    f.jobs.put(2L, job(2, "sw", JobState.FAILED, Duration.ofMinutes(5), null));
    f.jobs.put(3L, job(3, null, JobState.DONE, Duration.ofMinutes(5), null));
    f.groups.put("sw", new GroupFacts("sw", Map.of(JobState.DONE, 1, JobState.FAILED, 1), T0, T0));
    var one = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY);
    assertEquals(List.of(NoticeKind.END), kinds(one), "not the last event of its write: the sweep's message waits");
    var two = NoticeRules.decide(2, exited(2), f, one.memory());
    assertEquals(List.of(NoticeKind.FAILED), kinds(two));
    var three = NoticeRules.decide(3, exited(3), f, two.memory());
    assertEquals(List.of(NoticeKind.END, NoticeKind.GROUP, NoticeKind.DRAINED), kinds(three));
    assertEquals("queue drained: 2 DONE, 1 FAILED", three.notices().get(2).text(), "every end of the write counted");

    f.writeEnd = 2; // the sweep alone was the queue: its message says it all
    var sweepOnly = NoticeRules.decide(2, exited(2), f, one.memory());
    assertEquals(List.of(NoticeKind.FAILED, NoticeKind.GROUP), kinds(sweepOnly));
    assertTrue(sweepOnly.memory().drained());
  }

  private static List<NoticeKind> kinds(NoticeRules.Outcome o) {
    return o.notices().stream().map(Notice::kind).toList();
  }

  @Test
  void aGroupThatFailsFastIsToldByItsHoldNotByEachQuickFailure() {
    Facts f = new Facts();
    f.live = 1;
    f.failFastWithin = Duration.ofSeconds(60);
    f.jobs.put(1L, job(1, "sw", JobState.FAILED, Duration.ofSeconds(3), null));
    f.jobs.put(2L, job(2, "sw", JobState.FAILED, Duration.ofMinutes(5), null));
    f.jobs.put(3L, job(3, null, JobState.FAILED, Duration.ofSeconds(3), null));
    f.jobs.put(4L, job(4, "sw", JobState.FAILED, Duration.ofSeconds(3), "failed"));
    f.groups.put("sw", new GroupFacts("sw", Map.of(JobState.FAILED, 3, JobState.WAITING, 1), T0, T0));
    Notice quick = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY).notices().get(0);
    assertTrue(quick.byGroup());
    assertFalse(Routing.wants(quick, NoticeKind.DEFAULTS, null), "the hold that follows tells it");
    assertTrue(Routing.wants(quick, java.util.Set.of(NoticeKind.END), null), "a target hearing every end hears it");
    Notice slow = NoticeRules.decide(2, exited(2), f, NotifierMemory.EMPTY).notices().get(0);
    assertTrue(Routing.wants(slow, NoticeKind.DEFAULTS, null), "past the fail-fast window: told at once");
    Notice alone = NoticeRules.decide(3, exited(3), f, NotifierMemory.EMPTY).notices().get(0);
    assertTrue(Routing.wants(alone, NoticeKind.DEFAULTS, null), "not in a group: told at once");
    Notice asked = NoticeRules.decide(4, exited(4), f, NotifierMemory.EMPTY).notices().get(0);
    assertTrue(Routing.wants(asked, NoticeKind.DEFAULTS, null), "the job asked for its failure with --notify");
    f.failFastWithin = Duration.ZERO;
    Notice noRule = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY).notices().get(0);
    assertTrue(Routing.wants(noRule, NoticeKind.DEFAULTS, null), "without fail-fast no hold can tell it");
  }

  @Test
  void aSweepThatFailsFastAndEndsInOneWriteIsToldByItsHoldAlone() {
    Facts f = new Facts();
    f.live = 0;
    f.failFastWithin = Duration.ofSeconds(60);
    f.writeEnd = 5; // four ends, then the hold they caused, in one write
    for (long id = 1; id <= 4; id++) f.jobs.put(id, job(id, "ff", JobState.FAILED, Duration.ofSeconds(1), null));
    f.groups.put("ff", new GroupFacts("ff", Map.of(JobState.FAILED, 4), T0, T0));
    NotifierMemory m = NotifierMemory.EMPTY;
    List<Notice> heard = new java.util.ArrayList<>();
    for (long id = 1; id <= 4; id++) {
      var o = NoticeRules.decide(id, exited(id), f, m);
      o.notices().stream().filter(n -> Routing.wants(n, NoticeKind.DEFAULTS, null)).forEach(heard::add);
      m = o.memory();
    }
    var held = NoticeRules.decide(5, new LedgerEvent.GroupHeld("ff", "3 jobs in a row failed", true, T0), f, m);
    held.notices().stream().filter(n -> Routing.wants(n, NoticeKind.DEFAULTS, null)).forEach(heard::add);
    assertEquals(List.of(NoticeKind.HELD), heard.stream().map(Notice::kind).toList(), heard.toString());
    assertTrue(held.memory().drained() && held.memory().due().isEmpty(), held.memory().toString());

    // the hold alone (no group message: a cell still waits or runs) tells the queue's drain too
    f.live = 0;
    var heldOnly = NoticeRules.decide(5, new LedgerEvent.GroupHeld("ff", "3 jobs in a row failed", true, T0), f,
        NotifierMemory.EMPTY.ended("FAILED", "ff", Duration.ofSeconds(1)).ended("FAILED", "ff", Duration.ofSeconds(1)));
    assertEquals(List.of(NoticeKind.HELD), kinds(heldOnly));
    // a cell that was still running ends after the hold: the hold told the outcome already
    f.writeEnd = 6;
    f.jobs.put(6L, job(6, "ff", JobState.FAILED, Duration.ofSeconds(2), null));
    f.groups.put("ff", new GroupFacts("ff", Map.of(JobState.FAILED, 5), T0, T0));
    var late = NoticeRules.decide(6, exited(6), f, held.memory().queued());
    assertTrue(late.notices().stream().noneMatch(x -> x.kind() == NoticeKind.GROUP), late.toString());
    // released and retried: the group's next end is told
    f.writeEnd = 0;
    var released = NoticeRules.decide(7, new LedgerEvent.GroupReleased("ff", T0), f, late.memory());
    f.jobs.put(8L, job(8, "ff", JobState.DONE, Duration.ofMinutes(3), null));
    f.groups.put("ff", new GroupFacts("ff", Map.of(JobState.FAILED, 4, JobState.DONE, 2), T0, T0));
    var retried = NoticeRules.decide(8, exited(8), f, released.memory());
    assertEquals("ff: 2 DONE, 4 FAILED in 0s",
        retried.notices().stream().filter(x -> x.kind() == NoticeKind.GROUP).findFirst().orElseThrow().text());
  }

  @Test
  void anEventDecidedByItsTypeAloneHasTheOutcomeOfDecidingIt() {
    Facts f = new Facts();
    f.live = 0;
    f.jobs.put(1L, job(1, "g", JobState.DONE, Duration.ofMinutes(5), null));
    f.groups.put("g", new GroupFacts("g", Map.of(JobState.DONE, 1), T0, T0));
    // a memory with a group due and a job ended since the queue last ran dry: the type-only path
    // must still tell the group and the drained queue, as deciding the event does
    Facts behind = new Facts();
    behind.jobs.putAll(f.jobs);
    behind.groups.putAll(f.groups);
    behind.writeEnd = 100; // the group's end is decided at the last event of its write
    NotifierMemory ended = NoticeRules.decide(1, exited(1), behind, NotifierMemory.EMPTY).memory();
    assertFalse(ended.due().isEmpty(), "the group is due");
    assertFalse(NoticeRules.byType(9, LedgerEvent.JobReserved.class, f, ended).notices().isEmpty(),
        "the group and the drained queue are told at the next event, whatever its type");
    NotifierMemory drained = NoticeRules.decide(2, exited(1), f, NotifierMemory.EMPTY).memory();
    List<LedgerEvent> events = List.of(
        new LedgerEvent.JobReserved(2, List.of(), T0),
        new LedgerEvent.JobLaunched(2, null, T0),
        new LedgerEvent.JobRequeued(2, "back", T0));
    for (NotifierMemory m : List.of(NotifierMemory.EMPTY, ended, drained))
      for (LedgerEvent e : events) {
        assertFalse(NoticeRules.readsContent(e.getClass()), e.toString());
        assertEquals(NoticeRules.decide(9, e, f, m), NoticeRules.byType(9, e.getClass(), f, m), e + " on " + m);
      }
    assertTrue(NoticeRules.readsContent(LedgerEvent.JobExited.class));
    assertThrows(IllegalArgumentException.class, () -> NoticeRules.byType(9, LedgerEvent.JobExited.class, f, ended));
  }

  @Test
  void aSubmitDecidedByItsTypeMakesTheNextDrainedQueueToldAgain() {
    Facts f = new Facts();
    f.jobs.put(1L, job(1, null, JobState.DONE, Duration.ofMinutes(5), null));
    NotifierMemory drained = NoticeRules.decide(1, exited(1), f, NotifierMemory.EMPTY).memory();
    assertTrue(drained.drained(), "the queue ran dry after the job");
    var queued = NoticeRules.byType(2, LedgerEvent.JobSubmitted.class, f, drained);
    assertFalse(queued.memory().drained(), "something is queued again");
    assertEquals(drained, NoticeRules.byType(2, LedgerEvent.JobReserved.class, f, drained).memory());
  }
}

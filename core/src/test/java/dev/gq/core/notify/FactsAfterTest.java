package dev.gq.core.notify;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * The same events in the same writes give the same messages however far the history had got when
 * the notifier read it: a history replayed from the events, read at offsets ahead of the event
 * decided (moving on between two reads, as the real one does), gives what one read in step gives.
 */
class FactsAfterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** One stored event, with what the history makes of it: the job's group, and its end state and run time for an end. */
  private record Step(long seq, LedgerEvent event, String group, JobState end, Duration ran) {}

  /**
   * A history replayed from {@code steps}; each {@link #still} is read at an offset from {@code floor}
   * (the event decided: the notifier has the history catch up with it first) to the last event,
   * chosen by {@code timing}, never going back.
   */
  private static class Replay implements HistoryView {
    final List<Step> steps;
    final Set<Long> writeEnds;
    final Random timing;
    long floor;
    long at;

    Replay(List<Step> steps, Set<Long> writeEnds, Random timing) {
      this.steps = steps;
      this.writeEnds = writeEnds;
      this.timing = timing;
    }

    @Override public <T> T still(LongFunction<T> reads) {
      long last = steps.get(steps.size() - 1).seq();
      long from = Math.max(at, floor);
      at = timing == null ? from : from + timing.nextLong(last - from + 1);
      return reads.apply(at);
    }

    /** Each job's group and state after event {@code upTo}. */
    private Map<Long, Object[]> jobs(long upTo) {
      Map<Long, Object[]> jobs = new TreeMap<>();
      for (Step s : steps) {
        if (s.seq() > upTo) break;
        if (s.event() instanceof LedgerEvent.JobSubmitted e) jobs.put(e.jobId(), new Object[] {s.group(), JobState.WAITING});
        else if (s.end() != null) jobs.get(((LedgerEvent.JobEvent) s.event()).jobId())[1] = s.end();
      }
      return jobs;
    }

    @Override public Ahead ahead(long seq, long upTo) {
      Ahead a = Ahead.NONE;
      for (Step s : steps)
        if (s.seq() > seq && s.seq() <= upTo && s.event() instanceof LedgerEvent.JobEvent e)
          a = a.plus(e.getClass().getSimpleName(), e.jobId());
      return a;
    }

    @Override public Optional<JobFacts> job(long id) {
      Object[] j = jobs(Math.max(at, floor)).get(id);
      if (j == null) return Optional.empty();
      Duration ran = steps.stream().filter(s -> s.end() != null && ((LedgerEvent.JobEvent) s.event()).jobId() == id)
          .map(Step::ran).findFirst().orElse(null);
      JobState state = (JobState) j[1];
      return Optional.of(new JobFacts(id, "train.py", (String) j[0], state, T0, state.terminal() ? T0.plus(ran) : null,
          state == JobState.DONE ? 0 : 1, null, null));
    }

    @Override public long live() {
      return jobs(at).values().stream().filter(j -> !((JobState) j[1]).terminal()).count();
    }

    @Override public Optional<GroupFacts> group(String group, long idBelow) {
      Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
      jobs(at).forEach((id, j) -> {
        if (id < idBelow && group.equals(j[0])) counts.merge((JobState) j[1], 1, Integer::sum);
      });
      return counts.isEmpty() ? Optional.empty() : Optional.of(new GroupFacts(group, counts, null, null));
    }

    @Override public List<JobState> states(String group, Collection<Long> ids) {
      Map<Long, Object[]> jobs = jobs(at);
      return ids.stream().map(jobs::get).filter(j -> j != null && group.equals(j[0])).map(j -> (JobState) j[1]).toList();
    }

    @Override public GroupFacts times(GroupFacts counted, long idBelow) {
      return new GroupFacts(counted.group(), counted.counts(), T0, T0.plus(Duration.ofMinutes(10)));
    }

    @Override public boolean endsWrite(long seq) {
      return writeEnds.contains(seq);
    }

    @Override public Duration failFastWithin() {
      return Duration.ZERO;
    }
  }

  private static Step submit(long seq, long id, String group) {
    return new Step(seq, new LedgerEvent.JobSubmitted(id, null, "t", "l", null, T0), group, null, null);
  }

  private static Step exit(long seq, long id, JobState end, Duration ran) {
    return new Step(seq, new LedgerEvent.JobExited(id, end == JobState.DONE ? 0 : 1, null, T0), null, end, ran);
  }

  /**
   * A sweep of six jobs that is the whole queue (submitted in one write, ending one write each, the
   * last a failure), then a lone quick job submitted and ended after it.
   */
  private static List<Step> sweepThenALoneQuickJob() {
    List<Step> steps = new ArrayList<>();
    for (long id = 1; id <= 6; id++) steps.add(submit(id, id, "sw"));
    for (long id = 1; id <= 6; id++)
      steps.add(exit(6 + id, id, id == 6 ? JobState.FAILED : JobState.DONE, Duration.ofMinutes(10)));
    steps.add(submit(13, 7, null));
    steps.add(exit(14, 7, JobState.FAILED, Duration.ofSeconds(1)));
    return steps;
  }

  private static final Set<Long> WRITE_ENDS = Set.of(6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L);

  /** The messages of {@code steps} decided in order, the history read as {@code history} has it. */
  private static List<String> told(List<Step> steps, Replay history) {
    NoticeFacts facts = new FactsAfter(history);
    NotifierMemory m = NotifierMemory.EMPTY;
    List<String> told = new ArrayList<>();
    for (Step s : steps) {
      history.floor = s.seq();
      var o = NoticeRules.decide(s.seq(), s.event(), facts, m);
      o.notices().forEach(n -> told.add(n.kind() + " " + n.text()));
      m = o.memory();
    }
    return told;
  }

  @Test
  void aSweepThatWasTheWholeQueueIsOneMessageEvenWhenTheHistoryHadTakenTheNextWrite() {
    List<Step> steps = sweepThenALoneQuickJob();
    List<String> inStep = told(steps, new Replay(steps, WRITE_ENDS, null));
    assertEquals(List.of("FAILED job 6 (train.py, group sw) FAILED after 10m", "GROUP sw: 5 DONE, 1 FAILED in 10m",
        "FAILED job 7 (train.py) FAILED after 1s"), inStep.stream().filter(t -> !t.startsWith("END ")).toList(),
        "the sweep's message says it all, and the lone quick job drains quietly");

    // the order that told the drained queue besides: the sweep's last end decided while the history
    // already held the next write, which queued the quick job
    Replay ahead = new Replay(steps, WRITE_ENDS, null) {
      @Override public <T> T still(LongFunction<T> reads) {
        if (floor == 12) at = 13;
        return super.still(reads);
      }
    };
    assertEquals(inStep, told(steps, ahead));
  }

  @Test
  void theQueueFoundDryAfterTheGroupWasReadIsStillTheGroupsOneMessage() {
    // the order of the end-to-end test: the sweep's group read while its last job still runs, the
    // queue read once the history has taken that job's end
    List<Step> steps = sweepThenALoneQuickJob();
    Replay moving = new Replay(steps, WRITE_ENDS, null) {
      @Override public <T> T still(LongFunction<T> reads) {
        T t = super.still(reads);
        if (floor == 11) at = 12; // taken right after this read
        return t;
      }
    };
    List<String> told = told(steps, moving);
    assertEquals(1, told.stream().filter(t -> t.startsWith("GROUP")).count(), told.toString());
    assertEquals(0, told.stream().filter(t -> t.startsWith("DRAINED")).count(), told.toString());
  }

  @Test
  void theSameEventsGiveTheSameMessagesHoweverFarTheHistoryGotBetweenItsReads() {
    List<Step> steps = sweepThenALoneQuickJob();
    // the sweep's cells end in writes of two, and a second sweep overlaps it
    steps.add(3, submit(15, 8, "other"));
    List<Step> mixed = new ArrayList<>();
    long seq = 0;
    for (Step s : steps) {
      seq++;
      mixed.add(new Step(seq, s.event(), s.group(), s.end(), s.ran()));
    }
    mixed.add(exit(++seq, 8, JobState.DONE, Duration.ofMinutes(30)));
    Set<Long> ends = Set.of(4L, 7L, 9L, 11L, 13L, 14L, 15L, 16L);
    List<String> inStep = told(mixed, new Replay(mixed, ends, null));
    for (int seed = 0; seed < 300; seed++)
      assertEquals(inStep, told(mixed, new Replay(mixed, ends, new Random(seed))), "timing " + seed);
    assertTrue(inStep.contains("DRAINED queue drained: 6 DONE, 2 FAILED"), inStep.toString());
  }

  @Test
  void aHistoryBehindTheEventDecidedIsRefusedNotRead() {
    List<Step> steps = sweepThenALoneQuickJob();
    Replay behind = new Replay(steps, WRITE_ENDS, null) {
      @Override public <T> T still(LongFunction<T> reads) {
        return reads.apply(floor - 1);
      }
    };
    behind.floor = 12;
    var e = assertThrows(IllegalStateException.class, () -> new FactsAfter(behind).liveJobs(12));
    assertEquals("the job history is at event 11, behind event 12 being decided", e.getMessage());
  }

  @Test
  void whatTheLaterEventsDidIsTakenBack() {
    Ahead a = Ahead.NONE.plus("JobExited", 3L).plus("JobReserved", 9L).plus("JobSubmitted", 9L)
        .plus("JobSubmitted", 10L).plus("JobCancelled", 10L).plus("QueuePaused", null);
    assertEquals(2, a.started());
    assertEquals(Set.of(3L, 10L), a.ended());
    assertTrue(a.stored(8) && !a.stored(9), "jobs 9 and 10 were queued after the event");
    // 4 live in the view: job 9 and three that were live then; job 3 was live then too, job 10 never
    assertEquals(4, a.liveBefore(4));
    GroupFacts g = Ahead.before(new GroupFacts("g", Map.of(JobState.DONE, 2, JobState.CANCELLED, 1), null, null),
        List.of(JobState.CANCELLED));
    assertEquals(Map.of(JobState.DONE, 2, JobState.RUNNING, 1), g.counts());
  }
}

package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What a queue costs the ledger: a live job's command (argv, environment) stays in the stored
 * submission, a batch stores its environment once, a retry shares its source's command, and the
 * number of live jobs is bounded.
 */
class QueueMemoryTest {
  private static final Map<String, String> ENV = Map.of("HOME", "/home/u", "SECRETLESS", "x".repeat(3000));
  private final Driver d = new Driver();

  private static JobSpec cell(int i) {
    return new JobSpec(List.of("python", "cell.py", String.valueOf(i)), "/w", ENV, 0, null, "sweep", null);
  }

  @Test
  void theLedgerKeepsNoArgvOrEnvironmentOfAWaitingJob() {
    long id = d.submit(cell(1));
    JobSubmitted stored = (JobSubmitted) d.last.get(0);
    assertEquals(List.of("python", "cell.py", "1"), stored.spec().argv(), "the stored submission carries the command");
    assertEquals(ENV, stored.spec().env());
    Job live = d.ledger.live().get(id);
    assertEquals(List.of(), live.spec().argv());
    assertEquals(Map.of(), live.spec().env());
    assertEquals(stored.spec().withoutCommand(), live.spec(), "everything but the command stays: GPUs, group, key, cwd");
    assertEquals("job " + id, live.displayName());
  }

  @Test
  void aLedgerFromAnOldSnapshotDropsTheCommandsItHeld() {
    JobSpec full = cell(1);
    Job j = new Job(1, full, dev.gq.core.job.JobState.WAITING, d.now, null, null, List.of(), null, null, "/l", null, "t", null);
    Ledger old = new Ledger(2, Map.of(1L, j), Map.of(), false, Map.of());
    Ledger slim = old.withoutCommands();
    assertFalse(slim.live().get(1L).spec().hasCommand());
    assertEquals(full.withoutCommand(), slim.live().get(1L).spec());
  }

  @Test
  void aBatchStoresItsEnvironmentOnceAndEveryOtherLineNamesTheFirstJob() {
    var dec = Submissions.batch(d.ledger, IntStream.rangeClosed(1, 3).mapToObj(QueueMemoryTest::cell).toList(),
        List.of(1, 2, 3), d.intake());
    List<JobSubmitted> events = dec.events().stream().map(JobSubmitted.class::cast).toList();
    assertEquals(ENV, events.get(0).spec().env());
    assertNull(events.get(0).sameAs());
    for (JobSubmitted e : events.subList(1, 3)) {
      assertEquals(Map.of(), e.spec().env());
      assertEquals(events.get(0).jobId(), e.sameAs());
      assertFalse(e.spec().argv().isEmpty(), "each line keeps its own argv");
      assertEquals(cell(1).withEnv(Map.of()).argv().size(), e.spec().argv().size());
    }
    JobSpec whole = events.get(2).spec().completedFrom(events.get(0).spec());
    assertEquals(cell(3), whole, "the reader completes a line from the job it names");
  }

  @Test
  void anAutomaticRetryOfAJobWhoseCommandTheLedgerDoesNotHoldSharesTheFailedJobsCommand() {
    long id = d.submit(cell(1).withRetries(1).withTimeLimit(Duration.ofHours(1)));
    List<LedgerEvent> out = d.run(id, 3, Duration.ofMinutes(5));
    JobSubmitted retry = out.stream().filter(JobSubmitted.class::isInstance).map(JobSubmitted.class::cast).findFirst().orElseThrow();
    assertEquals(id, retry.sameAs());
    assertEquals(id, retry.retryOf());
    assertEquals(List.of(), retry.spec().argv());
    assertEquals(0, retry.spec().retries());
    assertEquals(cell(1).withTimeLimit(Duration.ofHours(1)), retry.spec().completedFrom(cell(1)));
  }

  @Test
  void aBatchOfMoreThanOneWriteMayHoldIsRefusedWithOneLine() {
    List<JobSpec> specs = IntStream.rangeClosed(1, Submissions.MAX_BATCH + 1).mapToObj(QueueMemoryTest::cell).toList();
    var dec = Submissions.batch(d.ledger, specs, IntStream.rangeClosed(1, specs.size()).boxed().toList(), d.intake());
    assertEquals("the batch has 20001 jobs and one batch may queue at most 20000; split it into parts of at most 20000"
        + " lines (split -l 20000); nothing was submitted", dec.refusal());
  }

  @Test
  void aSubmitBeyondTheLiveJobLimitIsRefusedWithOneLine() {
    d.maxLive = 3;
    d.submit(cell(1));
    d.submit(cell(2));
    var batch = Submissions.batch(d.ledger, List.of(cell(3), cell(4)), List.of(1, 2), d.intake());
    assertTrue(batch.refused());
    assertEquals("cannot queue 2 more job(s): 2 are live (waiting or running) and gq holds at most 3; wait for some to"
        + " end, cancel some (gq cancel), or submit fewer at once; nothing was submitted", batch.refusal());
    d.submit(cell(3));
    String one = d.refusal(cell(4));
    assertTrue(one.startsWith("cannot queue 1 more job(s): 3 are live"), one);
    assertEquals(3, d.ledger.live().size());
  }

  @Test
  void theJobsOfABatchShareOneSpecInTheLedgerAndOneAnswerPerGroup() {
    List<JobSpec> cells = IntStream.rangeClosed(1, 4).mapToObj(QueueMemoryTest::cell).toList();
    var dec = CappedSubmissions.batch(d.ledger, cells, List.of(1, 2, 3, 4), "sweep", null, d.intake());
    d.settle(dec.events());
    List<Job> live = List.copyOf(d.ledger.live().values());
    assertEquals(4, live.size());
    for (Job j : live) assertSame(live.get(0).spec(), j.spec(), "once its command is left out, a batch's spec is one");
    assertEquals(cells.get(0).withoutCommand(), live.get(0).spec());
    for (var o : dec.result()) assertSame(dec.result().get(0).queueing(), o.queueing());
    // a job whose spec differs keeps its own
    long other = d.submit(new JobSpec(List.of("x"), "/w", Map.of(), 2, null, "sweep", null));
    assertEquals(2, d.ledger.live().get(other).spec().gpus());
    assertEquals(d.replayed().live(), d.ledger.live(), "a replay builds the same ledger");
  }
}

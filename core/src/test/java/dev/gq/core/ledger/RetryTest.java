package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Automatic retries (--retries) and the retry decision (gq retry, gq recover). */
class RetryTest {
  private final Driver d = new Driver();

  private static JobSpec cell(String group, String key) {
    return new JobSpec(List.of("python", "train.py"), "/home/u", Map.of("A", "1"), 1, "cell", group, key);
  }

  /** An ended job as the history holds it. */
  private static Job ended(long id, JobState s, JobSpec spec, Long retryOf) {
    return new Job(id, spec, s, T0, T0, T0, List.of(), null, 1, "/logs/" + id + ".log", "x", tag(id), retryOf);
  }

  @Test
  void nonZeroExitWithRetriesLeftSubmitsTheSameJobAgainInTheSameWrite() {
    long a = d.submit(cell("g", "k").withRetries(2));
    List<LedgerEvent> written = d.run(a, 3, Duration.ofMinutes(5));
    assertInstanceOf(JobExited.class, written.get(0));
    JobSubmitted r = assertInstanceOf(JobSubmitted.class, written.get(1));
    assertEquals(a, r.retryOf());
    assertEquals(a, r.sameAs(), "the retry shares the stored command of the job it retries");
    assertEquals(cell("g", "k").withRetries(1), r.spec().completedFrom(cell("g", "k")));
    assertEquals(JobState.WAITING, d.state(r.jobId()));
    assertEquals(new Ledger.KeyHolder(r.jobId(), JobState.WAITING), d.ledger.keys().get("k"));
  }

  @Test
  void retriesOfRetriesKeepTheLineageRootAndStopWhenNoneAreLeft() {
    long a = d.submit(cell(null, null).withRetries(2));
    d.run(a, 1, Duration.ofMinutes(5));
    long second = d.lastOf(JobSubmitted.class).get(0).jobId();
    d.run(second, 1, Duration.ofMinutes(5));
    JobSubmitted third = d.lastOf(JobSubmitted.class).get(0);
    assertEquals(a, third.retryOf());
    assertEquals(0, third.spec().retries());
    d.run(third.jobId(), 1, Duration.ofMinutes(5));
    assertTrue(d.lastOf(JobSubmitted.class).isEmpty());
    assertEquals(JobState.FAILED, d.state(third.jobId()));
  }

  @Test
  void successCancelTimeoutAndLaunchFailureAreNotRetried() {
    long ok = d.submit(cell(null, null).withRetries(1));
    d.run(ok, 0, Duration.ofMinutes(1));
    assertTrue(d.lastOf(JobSubmitted.class).isEmpty());
    long cancelled = d.submit(cell(null, null).withRetries(1));
    d.start(cancelled);
    d.settle(d.ledger.cancel(List.of(cancelled), d.now));
    d.exit(cancelled, 143);
    assertTrue(d.lastOf(JobSubmitted.class).isEmpty());
    long slow = d.submit(cell(null, null).withRetries(1));
    d.start(slow);
    d.settle(List.of(new JobTimedOut(slow, 143, "exceeded its time limit of 1h", d.now)));
    assertTrue(d.lastOf(JobSubmitted.class).isEmpty());
    long missing = d.submit(cell(null, null).withRetries(1));
    d.settle(List.of(new JobReserved(missing, List.of(), d.now)));
    d.settle(List.of(new JobLaunchFailed(missing, "cannot run the command", d.now)));
    assertTrue(d.lastOf(JobSubmitted.class).isEmpty());
  }

  private Decision<Retries.Outcome> retry(List<Job> originals, Set<JobState> states) {
    return Retries.decide(d.ledger, originals, states, d.intake());
  }

  @Test
  void retryCopiesTheSpecUnderTheLineageRootAndReleasesTheGroupHold() {
    d.ledger = new Ledger(10, Map.of(), Map.of(), false, Map.of("g", "3 jobs in a row failed"));
    Job failed = ended(7, JobState.FAILED, cell("g", "k"), 4L);
    Job other = ended(8, JobState.CANCELLED, cell("g", null), null);
    var dec = retry(List.of(failed, other), Set.of());
    assertEquals(List.of(new Retries.Retried(7, 10), new Retries.Retried(8, 11)), dec.result().retried());
    assertEquals(List.of("g"), dec.result().released());
    JobSubmitted s = assertInstanceOf(JobSubmitted.class, dec.events().get(0));
    assertEquals(4L, s.retryOf());
    assertEquals(cell("g", "k"), s.spec());
    assertEquals(1, dec.events().stream().filter(GroupReleased.class::isInstance).count());
  }

  @Test
  void retryRefusesWithAReasonPerJob() {
    d.ledger = new Ledger(20, Map.of(3L, holding(3, JobState.RUNNING, 0)), Map.of("busy", new Ledger.KeyHolder(3, JobState.RUNNING)),
        false, Map.of());
    d.facts.put(5L, new LineageFact(5, 5, 9, JobState.FAILED));
    d.gpus = 1;
    List<Job> originals = List.of(
        ended(3, JobState.RUNNING, cell(null, null), null),
        ended(4, JobState.DONE, cell(null, null), null),
        ended(5, JobState.FAILED, cell(null, null), null),
        ended(6, JobState.CANCELLED, cell(null, null), null),
        ended(7, JobState.FAILED, cell(null, "busy"), null),
        ended(8, JobState.FAILED, new JobSpec(List.of("x"), "/", Map.of(), 2, null, null, null), null));
    var skipped = retry(originals, Set.of(JobState.FAILED)).result().skipped();
    assertEquals(List.of(
        new Retries.Skipped(3, "job 3 is RUNNING; only ended jobs are retried"),
        new Retries.Skipped(4, "job 4 is DONE; only FAILED jobs are retried"),
        new Retries.Skipped(5, "job 5 was already retried as job 9"),
        new Retries.Skipped(6, "job 6 is CANCELLED; only FAILED jobs are retried"),
        new Retries.Skipped(7, "job 7: its key 'busy' is already RUNNING as job 3"),
        new Retries.Skipped(8, "job 8 needs 2 GPU(s) but 1 are visible")), skipped);
  }

  @Test
  void aMissingJobOrWorkingDirectoryIsSkippedAndSkipsKeepTheOrderTheIdsWereGiven() {
    d.ledger = new Ledger(20, Map.of(), Map.of(), false, Map.of());
    Job gone = ended(4, JobState.FAILED, cell(null, null), null);
    Job done = ended(6, JobState.DONE, cell(null, null), null);
    Job failed = ended(8, JobState.FAILED, cell(null, null), null);
    var dec = Retries.decide(d.ledger, List.of(8L, 6L, 9L, 4L, 8L), Map.of(4L, gone, 6L, done, 8L, failed), Set.of(4L),
        Set.of(), null, d.intake());
    assertEquals(List.of(new Retries.Retried(8, 20)), dec.result().retried());
    assertEquals(List.of(
        new Retries.Skipped(6, "job 6 is DONE; only FAILED, CANCELLED, INTERRUPTED, TIMEOUT and PREEMPTED jobs are retried"),
        new Retries.Skipped(9, "job 9 does not exist"),
        new Retries.Skipped(4, "job 4: its working directory no longer exists: " + gone.spec().cwd())), dec.result().skipped());
  }

  @Test
  void withoutAFilterEveryUnsuccessfulEndIsRetriedButNotSuccess() {
    d.ledger = new Ledger(20, Map.of(), Map.of(), false, Map.of());
    List<Job> originals = List.of(ended(1, JobState.FAILED, cell(null, null), null), ended(2, JobState.CANCELLED, cell(null, null), null),
        ended(3, JobState.INTERRUPTED, cell(null, null), null), ended(4, JobState.TIMEOUT, cell(null, null), null),
        ended(5, JobState.DONE, cell(null, null), null));
    var out = retry(originals, Set.of()).result();
    assertEquals(4, out.retried().size());
    assertEquals("job 5 is DONE; only FAILED, CANCELLED, INTERRUPTED, TIMEOUT and PREEMPTED jobs are retried", out.skipped().get(0).reason());
  }

  @Test
  void onlyTheNewestAttemptOfALineageIsRetriedAndOnlyOnce() {
    d.ledger = new Ledger(20, Map.of(), Map.of(), false, Map.of());
    Job first = ended(1, JobState.FAILED, cell(null, null), null);
    Job newest = ended(3, JobState.FAILED, cell(null, null), 1L);
    d.facts.put(1L, new LineageFact(1, 1, 3, JobState.FAILED));
    d.facts.put(3L, new LineageFact(3, 1, 3, JobState.FAILED));
    var out = retry(List.of(first, newest, newest), Set.of()).result();
    assertEquals(List.of(new Retries.Retried(3, 20)), out.retried());
    assertEquals(List.of(new Retries.Skipped(1, "job 1 was already retried as job 3"),
        new Retries.Skipped(3, "job 3 was already retried as job 20")), out.skipped());
  }

  @Test
  void aRetriedJobWaitsForTheNewestAttemptOfWhatItDependedOn() {
    d.ledger = new Ledger(20, Map.of(), Map.of(), false, Map.of());
    Job parent = ended(1, JobState.FAILED, cell(null, null), null);
    Job child = ended(2, JobState.CANCELLED, cell(null, null).withAfter(List.of(new dev.gq.core.job.Dependency(1, true))), null);
    d.facts.put(1L, new LineageFact(1, 1, 1, JobState.FAILED));
    d.facts.put(2L, new LineageFact(2, 2, 2, JobState.CANCELLED));
    var dec = retry(List.of(parent, child), Set.of());
    assertEquals(2, dec.result().retried().size());
    Ledger after = dec.events().stream().reduce(d.ledger, Ledger::apply, (x, y) -> y);
    assertEquals("waiting for job 20 to succeed", after.blocked().get(21L).text());
  }
}

package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger.SubmitOutcome;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LedgerTest {
  static final int FOUR_GPUS = 4;

  static Decision<SubmitOutcome> submit(Ledger l, JobSpec spec) {
    return Submissions.one(l, spec, new SubmitContext(T0, () -> "tag-" + l.nextId(), id -> "/logs/" + id + ".log", FOUR_GPUS, null, Map.of()));
  }

  /** Submits and applies; the new job's id is {@code result.nextId() - 1}. */
  static Ledger submitted(Ledger l, JobSpec spec) {
    Decision<SubmitOutcome> d = submit(l, spec);
    assertFalse(d.refused(), d.refusal());
    return applyAll(l, d.events());
  }

  static Ledger applyAll(Ledger l, List<LedgerEvent> events) {
    for (LedgerEvent e : events) l = l.apply(e);
    return l;
  }

  static String refusal(JobSpec spec) {
    Decision<SubmitOutcome> d = submit(Ledger.empty(), spec);
    assertTrue(d.refused(), "expected a refusal for " + spec);
    assertTrue(d.events().isEmpty());
    return d.refusal();
  }

  static JobSpec labelled(String name, String group, String key) {
    return new JobSpec(List.of("true"), "/tmp", Map.of(), 0, name, group, key);
  }

  @Test
  void submitGivesIncreasingIdsAndAWaitingJob() {
    Ledger l = Ledger.empty();
    for (long expected = 1; expected <= 3; expected++) {
      Decision<SubmitOutcome> d = submit(l, spec(1));
      assertEquals(expected, d.result().jobId());
      assertEquals(JobState.WAITING, d.result().state());
      assertFalse(d.result().skipped());
      l = applyAll(l, d.events());
    }
    assertEquals(4, l.nextId());
    assertEquals(List.of(1L, 2L, 3L), l.waiting().stream().map(Job::id).toList());
    Job j = l.live().get(2L);
    assertEquals("tag-2", j.tag());
    assertEquals("/logs/4.log", ((LedgerEvent.JobSubmitted) submit(l, spec(1)).events().get(0)).logPath());
    assertNull(j.logPath(), "the log path stays in the stored submission, like the command");
    assertEquals(T0, j.submitTime());
  }

  @Test
  void holdersAreEachLedgersOwnThoughWorkedOutOnceForTheLatest() {
    Ledger l = submitted(submitted(Ledger.empty(), spec(1)), spec(2));
    assertEquals(Map.of(), l.holders());
    Ledger one = reserve(l, 1, 0);
    Map<String, List<Job>> first = one.holders();
    assertEquals(List.of(1L), first.get(uuid(0)).stream().map(Job::id).toList());
    assertSame(first, one.holders(), "asked again of the same ledger, the same answer");
    Ledger both = reserve(one, 2, 1, 2);
    assertEquals(3, both.holders().size());
    assertEquals(List.of(2L), both.holders().get(uuid(2)).stream().map(Job::id).toList());
    assertEquals(1, one.holders().size(), "an older ledger still has its own");
    assertEquals(Map.of(), l.holders());
    assertThrows(UnsupportedOperationException.class, () -> both.holders().clear());
  }

  @Test
  void submitDecidesWithoutChangingTheLedger() {
    Ledger l = Ledger.empty();
    Decision<SubmitOutcome> d = submit(l, spec(0));
    assertEquals(1, d.events().size());
    assertInstanceOf(JobSubmitted.class, d.events().get(0));
    assertEquals(Ledger.empty(), l);
  }

  @Test
  void emptyCommandIsRefused() {
    assertTrue(refusal(argv()).contains("command is empty"));
    assertTrue(refusal(argv("")).contains("command is empty"));
  }

  @Test
  void nulByteInAnyArgumentIsRefused() {
    assertTrue(refusal(argv("echo", "a\0b")).contains("NUL"));
  }

  @Test
  void negativeGpuCountIsRefused() {
    String why = refusal(spec(-1));
    assertTrue(why.contains("-1"), why);
  }

  @Test
  void missingWorkingDirectoryIsRefused() {
    assertTrue(refusal(new JobSpec(List.of("true"), "", Map.of(), 0, null, null, null)).contains("working directory"));
  }

  @Test
  void moreGpusThanTheMachineHasIsRefusedNamingTheCount() {
    String why = refusal(spec(FOUR_GPUS + 1));
    assertTrue(why.contains("5 GPU"), why);
    assertTrue(why.contains("at most 4"), why);
    assertFalse(submit(Ledger.empty(), spec(FOUR_GPUS)).refused());
  }

  @Test
  void gpuJobBeforeAnyReadingIsRefusedWithTheProbeError() {
    var d = Submissions.one(Ledger.empty(), spec(1), new SubmitContext(T0, () -> "t", id -> "l", -1, "libnvidia-ml.so.1: cannot open", Map.of()));
    assertTrue(d.refused());
    assertTrue(d.refusal().contains("libnvidia-ml.so.1: cannot open"), d.refusal());
    assertTrue(d.refusal().contains("-g 0"), d.refusal());
    var noError = Submissions.one(Ledger.empty(), spec(1), new SubmitContext(T0, () -> "t", id -> "l", -1, null, Map.of()));
    assertTrue(noError.refusal().contains("no GPU reading yet") && noError.refusal().contains("0 are visible"), noError.refusal());
  }

  @Test
  void cpuOnlyJobIsAcceptedBeforeAnyReading() {
    var d = Submissions.one(Ledger.empty(), spec(0), new SubmitContext(T0, () -> "t", id -> "l", -1, "no driver", Map.of()));
    assertFalse(d.refused());
    assertEquals(1, d.events().size());
  }

  @Test
  void badLabelsAreRefusedNamingTheLabel() {
    assertTrue(refusal(labelled(null, "a\nb", null)).contains("group"));
    assertTrue(refusal(labelled(null, null, "  ")).contains("key"));
    assertTrue(refusal(labelled("x".repeat(SpecRules.MAX_LABEL + 1), null, null)).contains("name"));
  }

  @Test
  void keyIsSkippedWhileItsJobIsWaiting() {
    Ledger l = submitted(Ledger.empty(), keyed(0, "k"));
    Decision<SubmitOutcome> again = submit(l, keyed(0, "k"));
    assertFalse(again.refused());
    assertTrue(again.events().isEmpty());
    assertTrue(again.result().skipped());
    assertEquals(1L, again.result().jobId());
    assertEquals(JobState.WAITING, again.result().state());
    assertTrue(again.result().message().startsWith("Skipped"), again.result().message());
  }

  @Test
  void keyIsSkippedWhileItsJobIsStartingRunningOrCancelling() {
    Ledger l = reserve(submitted(Ledger.empty(), keyed(1, "k")), 1, 0);
    assertSkipped(l, JobState.STARTING);
    l = l.apply(new JobLaunched(1, leader(100), T0));
    assertSkipped(l, JobState.RUNNING);
    l = l.apply(new JobCancelRequested(1, T0));
    assertSkipped(l, JobState.CANCELLING);
  }

  @Test
  void keyIsSkippedAfterItsJobIsDone() {
    Ledger l = run(submitted(Ledger.empty(), keyed(1, "k")), 1).apply(new JobExited(1, 0, null, T0));
    assertSkipped(l, JobState.DONE);
  }

  @Test
  void keyIsSkippedWhileItsJobIsOrphaned() {
    Ledger l = run(submitted(Ledger.empty(), keyed(1, "k")), 1).apply(new JobOrphaned(1, "GPU gone", T0));
    assertSkipped(l, JobState.ORPHANED);
  }

  @Test
  void keyIsReusableAfterFailure() {
    Ledger l = run(submitted(Ledger.empty(), keyed(1, "k")), 1).apply(new JobExited(1, 3, null, T0));
    assertReusable(l);
  }

  @Test
  void keyIsReusableAfterCancel() {
    assertReusable(submitted(Ledger.empty(), keyed(1, "k")).apply(new JobCancelled(1, "by user", T0)));
  }

  @Test
  void keyIsReusableAfterInterruption() {
    assertReusable(run(submitted(Ledger.empty(), keyed(1, "k")), 1).apply(new JobInterrupted(1, "reboot", T0)));
  }

  @Test
  void keyIsReusableAfterLaunchFailure() {
    assertReusable(reserve(submitted(Ledger.empty(), keyed(1, "k")), 1, 0).apply(new JobLaunchFailed(1, "no cwd", T0)));
  }

  @Test
  void newestJobWithAKeyHoldsIt() {
    Ledger l = submitted(Ledger.empty(), keyed(0, "k")).apply(new JobCancelled(1, "x", T0));
    l = submitted(l, keyed(0, "k"));
    var d = submit(l, keyed(0, "k"));
    assertTrue(d.result().skipped());
    assertEquals(2L, d.result().jobId());
  }

  @Test
  void otherKeysAreIndependent() {
    Ledger l = submitted(Ledger.empty(), keyed(0, "a"));
    assertFalse(submit(l, keyed(0, "b")).result().skipped());
    assertFalse(submit(l, spec(0)).result().skipped());
  }

  private static void assertSkipped(Ledger l, JobState holderState) {
    var d = submit(l, keyed(1, "k"));
    assertTrue(d.result().skipped(), "key must be skipped while " + holderState);
    assertEquals(holderState, d.result().state());
    assertTrue(d.events().isEmpty());
  }

  private static void assertReusable(Ledger l) {
    var d = submit(l, keyed(1, "k"));
    assertFalse(d.result().skipped());
    assertEquals(2L, d.result().jobId());
    assertEquals(1, d.events().size());
  }

  static Ledger reserve(Ledger l, long id, int... indices) {
    return l.apply(new JobReserved(id, slots(indices), T0.plusSeconds(10)));
  }

  static Ledger run(Ledger l, long id) {
    return reserve(l, id, (int) id - 1).apply(new JobLaunched(id, leader(100 * id), T0.plusSeconds(11)));
  }

  @Test
  void ledgerKnowsWhichIdsItHasGivenOut() {
    Ledger l = submitted(submitted(Ledger.empty(), spec(0)), spec(0));
    assertFalse(l.issued(0));
    assertTrue(l.issued(1));
    assertTrue(l.issued(2));
    assertFalse(l.issued(3));
  }
}

package dev.gq.actors.scheduler;

import dev.gq.core.end.EndSeen;
import dev.gq.core.schedule.Request;
import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.Retries;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Scheduler's sweep commands: batches, retries, holds, dependencies and time limits, across restarts. */
class SchedulerSweepTest {
  private static final ActorTestKit KIT = ActorTestKit.create(
      EventSourcedBehaviorTestKit.config().withFallback(ConfigFactory.parseString("""
          pekko.actor.serialization-bindings {
            "dev.gq.core.ledger.LedgerEvent" = jackson-json
            "dev.gq.core.ledger.Ledger" = jackson-json
            "dev.gq.persistence.LedgerSnapshot" = jackson-json
          }
          pekko.actor.serialization-bindings."dev.gq.actors.scheduler.SchedulerProtocol$Command" = java
          pekko.actor.allow-java-serialization = on
          pekko.actor.warn-about-java-serializer-usage = off
          """)));

  private final SchedulerTest.FakeDeps deps = new SchedulerTest.FakeDeps();
  private EventSourcedBehaviorTestKit<Scheduler.Command, LedgerEvent, Ledger> es;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    es = EventSourcedBehaviorTestKit.create(KIT.system(), Scheduler.create(NoEffects.settings(3), deps),
        new EventSourcedBehaviorTestKit.SerializationSettings(true, true, false, true, true));
    es.clear();
    es.runCommand(new Scheduler.Report(new Request.Reconciled(Map.of())));
  }

  private static JobSpec cell(String group) {
    return new JobSpec(List.of("false"), "/tmp", Map.of(), 0, null, group, null);
  }

  private long submit(JobSpec s) {
    var r = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(x -> new Scheduler.Ask<>(new Request.Submit(s), x)).reply();
    assertTrue(r.isSuccess(), () -> r.getError().getMessage());
    return r.getValue().jobId();
  }

  /** The job (CPU-only, so reserved at submit) launches and ends with {@code code}; returns what the end wrote. */
  private List<LedgerEvent> runAndEnd(long id, int code) {
    es.runCommand(new Scheduler.Report(new Request.Launched(id, new ProcessIdentity(100 * id, 100 * id, 100 * id, 5, "boot"))));
    return es.runCommand(new Scheduler.Report(new Request.Ended(id, EndSeen.exited(code), System.nanoTime(), null, 0))).events();
  }

  @Test
  void aBatchIsOneWriteWithOneOutcomePerLine() {
    var specs = List.of(cell("s"), new JobSpec(List.of("true"), "/tmp", Map.of(), 0, null, "s", "k"),
        new JobSpec(List.of("true"), "/tmp", Map.of(), 0, null, "s", "k"));
    var result = es.<StatusReply<List<Ledger.SubmitOutcome>>>runCommand(
        r -> new Scheduler.Ask<>(new Request.SubmitBatch(specs, List.of(1, 2, 3), Map.of()), r));
    List<Ledger.SubmitOutcome> out = result.reply().getValue();
    assertEquals(List.of(false, false, true), out.stream().map(Ledger.SubmitOutcome::skipped).toList());
    assertEquals(4, result.events().size(), "two submissions and their two reservations");
  }

  private JobState state(long id) {
    Job j = es.getState().live().get(id);
    return j == null ? null : j.state();
  }

  @Test
  void aGroupStartsNoJobWhileItsOpenJobsCouldReachTheFailFastCount() {
    long a = submit(cell("g")), b = submit(cell("g")), c = submit(cell("g")), d = submit(cell("g"));
    assertEquals(List.of(JobState.STARTING, JobState.STARTING, JobState.STARTING, JobState.WAITING),
        List.of(state(a), state(b), state(c), state(d)), "three may still fail");
    for (long id : List.of(a, b, c)) es.runCommand(new Scheduler.Report(new Request.Launched(id, new ProcessIdentity(100 * id, 100 * id, 100 * id, 5, "boot"))));
    assertEquals(JobState.STARTING, state(d), "launched jobs do not count");
    es.runCommand(new Scheduler.Report(new Request.Launched(d, new ProcessIdentity(100 * d, 100 * d, 100 * d, 5, "boot"))));
    long e = submit(cell("g"));
    for (long id : List.of(a, b, c)) es.runCommand(new Scheduler.Report(new Request.Ending(id, true)));
    long f = submit(cell("g"));
    assertEquals(JobState.STARTING, state(e));
    assertEquals(JobState.WAITING, state(f), "three ends on their way and one start: the next waits");
    es.runCommand(new Scheduler.Report(new Request.Ending(a, false)));
    assertEquals(JobState.WAITING, state(f), "still three open");
    es.runCommand(new Scheduler.Report(new Request.Launched(e, new ProcessIdentity(100 * e, 100 * e, 100 * e, 5, "boot"))));
    assertEquals(JobState.STARTING, state(f), "a job whose processes were not all gone after all no longer counts");
  }

  @Test
  void aBadLineRefusesTheBatchWithoutWritingAnything() {
    var specs = List.of(cell("s"), new JobSpec(List.of("x"), "/tmp", Map.of(), -1, null, null, null));
    var result = es.<StatusReply<List<Ledger.SubmitOutcome>>>runCommand(
        r -> new Scheduler.Ask<>(new Request.SubmitBatch(specs, List.of(4, 9), Map.of()), r));
    assertTrue(result.reply().isError());
    assertTrue(result.reply().getError().getMessage().startsWith("line 9: the GPU count must be 0 or more"));
    assertTrue(result.events().isEmpty());
  }

  @Test
  void threeQuickFailuresHoldTheGroupInTheWriteOfTheThirdAndTheHoldSurvivesARestart() {
    long a = submit(cell("g")), b = submit(cell("g")), c = submit(cell("g"));
    es.runCommand(new Scheduler.Ask<>(new Request.HoldQueue(null), KIT.<StatusReply<String>>createTestProbe().ref()));
    long later = submit(cell("g"));
    runAndEnd(a, 1);
    runAndEnd(b, 1);
    List<LedgerEvent> third = runAndEnd(c, 1);
    GroupHeld h = assertInstanceOf(GroupHeld.class, third.get(1));
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3): exited with status 1", h.reason());
    Ledger restarted = es.restart().state();
    assertEquals(h.reason(), restarted.holds().get("g"));
    assertEquals(Set.of("g"), restarted.autoHeld());
    assertEquals(JobState.WAITING, restarted.live().get(later).state());
  }

  @Test
  void holdingOrReleasingAnEmptyGroupNameIsARefusalNotAnAnswer() {
    var held = es.<StatusReply<String>>runCommand(r -> new Scheduler.Ask<>(new Request.HoldQueue(""), r));
    assertTrue(held.reply().isError(), "a refusal, so the CLI says it on stderr and exits 1");
    assertTrue(held.reply().getError().getMessage().startsWith("the group must not be empty"), held.reply().getError().getMessage());
    assertTrue(held.events().isEmpty());
    var released = es.<StatusReply<String>>runCommand(r -> new Scheduler.Ask<>(new Request.ReleaseQueue(" "), r));
    assertTrue(released.reply().isError());
  }

  @Test
  void aRetryReleasesTheHoldOfItsGroupInTheSameWrite() {
    es.runCommand(new Scheduler.Ask<>(new Request.HoldQueue("g"), KIT.<StatusReply<String>>createTestProbe().ref()));
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    Job failed = new Job(7, cell("g"), JobState.FAILED, t, t, t, List.of(), null, 1, "/tmp/7.log", "exited with status 1", "tag", null);
    var result = es.<StatusReply<Retries.Outcome>>runCommand(r -> new Scheduler.Ask<>(new Request.Retry(List.of(7L), Map.of(7L, failed),
        Set.of(), Set.of(), null, Map.of(7L, new LineageFact(7, 7, 7, JobState.FAILED))), r));
    Retries.Outcome o = result.reply().getValue();
    assertEquals(List.of("g"), o.released());
    JobSubmitted s = assertInstanceOf(JobSubmitted.class, result.events().get(0));
    assertEquals(7L, s.retryOf());
    assertInstanceOf(GroupReleased.class, result.events().get(1));
    assertInstanceOf(JobReserved.class, result.events().get(2), "released, the retry is placed at once");
  }

  @Test
  void aFailedExitWithRetriesLeftIsRetriedInTheWriteOfTheExit() {
    long a = submit(cell(null).withRetries(1));
    List<LedgerEvent> end = runAndEnd(a, 2);
    assertInstanceOf(JobExited.class, end.get(0));
    JobSubmitted retry = assertInstanceOf(JobSubmitted.class, end.get(1));
    assertEquals(a, retry.retryOf());
    assertEquals(0, retry.spec().retries());
  }

  @Test
  void dependentsSurviveARestartAndAreCancelledWhenTheirJobFails() {
    long a = submit(cell(null));
    long b = submit(cell(null).withAfter(List.of(new Dependency(a, true))));
    SchedulerView v = es.<SchedulerView>runCommand(Scheduler.GetView::new).reply();
    assertEquals("waiting for job 1 to succeed", v.waitReasons().get(b).text());
    es.restart();
    es.runCommand(new Scheduler.Report(new Request.Reconciled(Map.of())));
    List<LedgerEvent> end = runAndEnd(a, 1);
    JobCancelled c = assertInstanceOf(JobCancelled.class, end.get(1));
    assertEquals(b, c.jobId());
    assertTrue(c.reason().contains("job 1"));
  }

  @Test
  void anUnknownDependencyIsRefused() {
    var r = es.<StatusReply<Ledger.SubmitOutcome>>runCommand(
        x -> new Scheduler.Ask<>(new Request.Submit(cell(null).withAfter(List.of(new Dependency(42, false)))), x)).reply();
    assertEquals("job 42 does not exist; --after and --after-ok take the id of a submitted job", r.getError().getMessage());
  }

  @Test
  void aJobStoppedAtItsLimitEndsTimeoutNamingTheLimit() {
    long a = submit(cell(null).withTimeLimit(Duration.ofHours(2)));
    es.runCommand(new Scheduler.Report(new Request.Launched(a, new ProcessIdentity(100, 100, 100, 5, "boot"))));
    var end = es.runCommand(new Scheduler.Report(new Request.Ended(a, EndSeen.exited(143).atTimeLimit(), System.nanoTime(), null, 0)));
    JobTimedOut t = assertInstanceOf(JobTimedOut.class, end.events().get(0));
    assertEquals("exceeded its time limit of 2h", t.reason());
    assertFalse(end.state().live().containsKey(a));
  }

  @Test
  void removingAnEndedKeyHolderFreesItsKey() {
    JobSpec keyed = new JobSpec(List.of("true"), "/tmp", Map.of(), 0, null, null, "k");
    long a = submit(keyed);
    runAndEnd(a, 0);
    var facts = Map.of(a, new dev.gq.core.ledger.HistoryFact(a, JobState.DONE, java.time.Instant.now()));
    var r = es.<StatusReply<List<Long>>>runCommand(x -> new Scheduler.Ask<>(new Request.Remove(List.of(a), facts), x));
    assertInstanceOf(JobsRemoved.class, r.events().get(0));
    assertFalse(r.state().keys().containsKey("k"));
    assertNotEquals(a, submit(keyed));
  }

  @Test
  void everyDeletionIsStoredAsOneEventNamingEveryIdAndALiveJobIsRefused() {
    JobSpec plain = new JobSpec(List.of("true"), "/tmp", Map.of(), 0, null, null, null);
    long a = submit(plain);
    runAndEnd(a, 0);
    long b = submit(plain);
    runAndEnd(b, 1);
    long c = submit(plain);
    var ended = Map.of(a, new dev.gq.core.ledger.HistoryFact(a, JobState.DONE, java.time.Instant.EPOCH),
        b, new dev.gq.core.ledger.HistoryFact(b, JobState.FAILED, java.time.Instant.EPOCH));
    var page = es.<StatusReply<List<Long>>>runCommand(x -> new Scheduler.Ask<>(new Request.Clean(List.copyOf(ended.values()), Set.of(),
        java.time.Instant.now()), x));
    assertEquals(List.of(new JobsRemoved(List.of(a, b), ((JobsRemoved) page.events().get(0)).at())), page.events());
    assertEquals(List.of(a, b), page.reply().getValue());
    var refused = es.<StatusReply<List<Long>>>runCommand(x -> new Scheduler.Ask<>(new Request.Remove(List.of(c), Map.of()), x));
    assertTrue(refused.events().isEmpty());
    String why = refused.reply().getError().getMessage();
    assertTrue(why.startsWith("job " + c + " is ") && why.endsWith(" and cannot be deleted; cancel it first"), why);
  }
}

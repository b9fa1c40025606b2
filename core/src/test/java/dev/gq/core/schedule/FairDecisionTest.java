package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.Demand;
import dev.gq.core.fair.FairView;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.JobSpec;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared machine's step of the plan as the Decider applies it: the policy, the fair turn, interactive GPUs. */
class FairDecisionTest {
  private static final String FILE = "/etc/gq/policy.toml";
  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");
  private static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1002, "bob", "/home/bob/.local/share/gq");
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private Instant now = T0;
  private FairView fair = FairView.NONE;
  private final Map<String, GpuLease> leases = new HashMap<>();

  private DecisionContext context() {
    return new DecisionContext(now, 1, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64,
        1024, DecisionContext.IDLE_AFTER, fair);
  }

  private <R> Decided<R> decide(dev.gq.core.schedule.Request<R> r) {
    Decided<R> d = Decider.decide(l, s, r, context());
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  private void read(int n) {
    List<DeviceReading> devices = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      devices.add(device(i));
      leases.putIfAbsent(uuid(i), GpuLease.FREE);
    }
    decide(new Request.Observed(new GpuObservation(new GpuReading(now, devices, null), Map.of(), leases, ALICE), "fake", true, 1));
  }

  private long reserved() {
    return l.live().values().stream().filter(j -> j.state().holdsGpus()).count();
  }

  private static FairView view(Map<String, Object> policy, List<Demand> demands, Instant freeSince) {
    Map<String, Instant> free = new HashMap<>();
    for (int i = 0; i < 8; i++) free.put(uuid(i), freeSince);
    return new FairView(new PolicyReading(Policy.from(policy, FILE), null), demands, Map.of(), free);
  }

  private static Demand bobWaits(int gpus) {
    return new Demand("bob", 1002, 4242, 7, "boot", gpus, gpus, 1, T0.minusSeconds(60), 0, T0);
  }

  @Test
  void withoutAPolicyEveryFreeGpuIsTakenAsBefore() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(4);
    for (int i = 0; i < 4; i++) decide(new Request.Submit(spec(1)));
    assertEquals(4, reserved());
  }

  @Test
  void anOverShareUserLeavesAFreedGpuToAWaitingUserForTheTurnThenTakesIt() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(4);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved(), "alone, alice takes what she asks for");
    fair = view(Map.of("max_gpus_per_user", 2, "fair_turn", "30s"), List.of(bobWaits(2)), now);
    var d = decide(new Request.Submit(spec(1)));
    assertTrue(d.events().stream().noneMatch(e -> e instanceof JobReserved), "alice holds her share of 2 while bob waits");
    var reason = Reservations.plan(l, s, context()).waitReasons().get(3L);
    assertTrue(reason.text().startsWith("fair share: bob waits for 2 GPUs; alice holds 2 of 4 (the fair share is 2)"), reason.text());
    now = now.plusSeconds(31);
    read(4);
    assertEquals(3, reserved(), "after the turn, a GPU bob did not take goes to whoever takes it");
  }

  @Test
  void theGpusBobHoldsCountFromTheLeasesAndABelowShareUserTakesAtOnce() {
    decide(new Request.Reconciled(Map.of(), 0));
    leases.put(uuid(2), GpuLease.held(new LeaseHolder(BOB, 5)));
    leases.put(uuid(3), GpuLease.held(new LeaseHolder(BOB, 6)));
    read(4);
    // bob claims to hold nothing, but his leases say 2: he is at his share, alice below hers
    fair = view(Map.of("max_gpus_per_user", 2), List.of(new Demand("bob", 1002, 4242, 7, "boot", 1, 1, 1, T0.minusSeconds(600), 0, T0)), now);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved());
  }

  @Test
  void theAlwaysLimitHoldsEvenAlone() {
    decide(new Request.Reconciled(Map.of(), 0));
    fair = view(Map.of("max_gpus_per_user_always", 2), List.of(), now);
    read(4);
    for (int i = 0; i < 3; i++) decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved());
    assertTrue(Reservations.plan(l, s, context()).waitReasons().get(3L).text().startsWith("user limit: alice holds 2 GPUs"));
  }

  @Test
  void interactiveGpusAreKeptFromQueuedJobs() {
    decide(new Request.Reconciled(Map.of(), 0));
    fair = view(Map.of("interactive_gpus", List.of(0, 1)), List.of(), now);
    read(4);
    for (int i = 0; i < 3; i++) decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved());
    var j = l.live().values().stream().filter(x -> x.state().holdsGpus()).flatMap(x -> x.gpus().stream()).map(g -> g.index()).sorted().toList();
    assertEquals(List.of(2, 3), j);
    assertTrue(Reservations.plan(l, s, context()).waitReasons().get(3L).text().contains("kept for interactive work"));
  }

  @Test
  void aTimeOverTheLongestOnSharedGpusIsRefusedInOneLine() {
    decide(new Request.Reconciled(Map.of(), 0));
    fair = view(Map.of("max_time_on_shared", "1h"), List.of(), now);
    read(1);
    JobSpec long1 = new JobSpec(List.of("python", "t.py"), "/home/u", Map.of(), 1, null, null, null, List.of(), 0,
        Duration.ofHours(2), 0);
    var d = decide(new Request.Submit(long1));
    assertTrue(d.refused());
    assertTrue(d.refusal().startsWith("--time 2h is longer than this machine's policy allows on shared GPUs"), d.refusal());
    assertFalse(d.refusal().contains("\n"));
    JobSpec cpu = new JobSpec(List.of("python", "t.py"), "/home/u", Map.of(), 0, null, null, null, List.of(), 0,
        Duration.ofHours(2), 0);
    assertFalse(decide(new Request.Submit(cpu)).refused(), "a CPU-only job uses no shared GPU");
    var plain = decide(new Request.Submit(spec(1)));
    assertEquals(Duration.ofHours(1), l.live().get(plain.answer().jobId()).spec().timeLimit(),
        "a GPU job without --time gets the policy's longest as its own");
    assertEquals(Duration.ofHours(2), l.live().get(1L).spec().timeLimit(), "a CPU job keeps its own");
  }

  @Test
  void anotherUsersBookingKeepsItsGpusFromAJobWithoutTimeAndTheBookerTakesThem() {
    decide(new Request.Reconciled(Map.of(), 0));
    var booking = new dev.gq.core.fair.Booking("0123abcd", "bob", 1002, List.of(uuid(0), uuid(1)), T0.plusSeconds(3600),
        T0.plusSeconds(7200), T0);
    fair = new FairView(dev.gq.core.fair.PolicyReading.ABSENT, List.of(), Map.of(), Map.of(), List.of(booking), java.time.ZoneOffset.UTC);
    read(4);
    for (int i = 0; i < 3; i++) decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved(), "only GPUs 2 and 3 are not booked");
    var on = l.live().values().stream().filter(x -> x.state().holdsGpus()).flatMap(x -> x.gpus().stream()).map(g -> g.index()).sorted().toList();
    assertEquals(List.of(2, 3), on);
    var reason = Reservations.plan(l, s, context()).waitReasons().get(3L);
    assertEquals("booked", reason.brief());
    assertTrue(reason.text().contains("GPU 0 is free but booked by bob from Wed 01:00 to Wed 02:00; from 2h before, a job starts on it"
        + " only with a --time that ends by Wed 01:00 (this job has no --time)"), reason.text());
  }

  @Test
  void beforeTheWindowAJobWhoseTimeEndsByItsStartMayTakeABookedGpu() {
    decide(new Request.Reconciled(Map.of(), 0));
    var booking = new dev.gq.core.fair.Booking("0123abcd", "bob", 1002, List.of(uuid(0)), T0.plusSeconds(3600),
        T0.plusSeconds(7200), T0);
    fair = new FairView(dev.gq.core.fair.PolicyReading.ABSENT, List.of(), Map.of(), Map.of(), List.of(booking), java.time.ZoneOffset.UTC);
    read(1);
    JobSpec twoHours = new JobSpec(List.of("python", "t.py"), "/home/u", Map.of(), 1, null, null, null, List.of(), 0,
        Duration.ofHours(2), 0);
    JobSpec halfHour = new JobSpec(List.of("python", "t.py"), "/home/u", Map.of(), 1, null, null, null, List.of(), 0,
        Duration.ofMinutes(30), 0);
    decide(new Request.Submit(twoHours));
    assertEquals(0, reserved(), "2h would run into bob's window");
    decide(new Request.Submit(halfHour));
    assertEquals(1, reserved(), "30m ends before it: the younger job goes on the booked GPU");
    assertTrue(l.live().get(2L).state().holdsGpus());
  }

  @Test
  void theBookersOwnJobsTakeTheBookedGpus() {
    decide(new Request.Reconciled(Map.of(), 0));
    var booking = new dev.gq.core.fair.Booking("0123abcd", "alice", 1001, List.of(uuid(0), uuid(1)), T0, T0.plusSeconds(7200), T0);
    fair = new FairView(dev.gq.core.fair.PolicyReading.ABSENT, List.of(), Map.of(), Map.of(), List.of(booking), java.time.ZoneOffset.UTC);
    read(2);
    for (int i = 0; i < 2; i++) decide(new Request.Submit(spec(1)));
    assertEquals(2, reserved());
  }

  @Test
  void aForgedLeaseLineIsChargedToTheUserWhoseProcessHoldsTheLockNotToTheUserItNames() {
    decide(new Request.Reconciled(Map.of(), 0));
    LeaseHolder forged = LeaseHolder.parse(new LeaseHolder(BOB, 9).line()).orElseThrow();
    var carol = new dev.gq.core.lease.LockWitness.Person(1003, "carol");
    leases.put(uuid(0), GpuLease.held(dev.gq.core.lease.LockWitness.attribute(forged, new dev.gq.core.lease.LockWitness(List.of(carol), null))));
    leases.put(uuid(1), GpuLease.held(forged)); // a line no live process confirms: shown, charged to nobody
    read(4);
    var loads = FairPlan.loads(FairPlan.Own.NONE, s.gpus().latest(), FairView.NONE, ALICE, now);
    assertEquals(1, loads.get("carol").held());
    assertFalse(loads.containsKey("bob"), "bob holds nothing, whatever a line says: " + loads);
  }

  @Test
  void onlyJobsThatCouldStartNowArePublishedAsDemand() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(1);
    decide(new Request.Submit(spec(1)));
    JobSpec later = new JobSpec(List.of("python", "t.py"), "/home/u", Map.of(), 1, null, null, null, List.of(), 0, null, 0,
        now.plusSeconds(3600), null, null, null);
    decide(new Request.Submit(later));
    decide(new Request.Submit(spec(1)));
    FairPlan.Own own = FairPlan.own(l, now);
    assertEquals(1, own.jobsWaiting(), "the job whose --begin is an hour away is no demand yet");
    assertEquals(1, own.gpusWanted());
    assertEquals(2, FairPlan.own(l, now.plusSeconds(3601)).jobsWaiting(), "once its time has come it is");
  }

  @Test
  void aReservedJobIsStillPublishedAsWaitingUntilItRuns() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(2);
    decide(new Request.Submit(spec(1)));
    decide(new Request.Submit(spec(2)));
    assertEquals(1, reserved(), "one GPU job reserved, one waiting for two GPUs");
    FairPlan.Own own = FairPlan.own(l, now);
    assertEquals(1, own.jobsWaiting());
    assertEquals(2, own.gpusWanted());
    assertEquals(1, own.gpusHeld());
    FairPlan.Own published = FairPlan.published(l, now);
    assertEquals(2, published.jobsWaiting(), "its launch has no leases yet: others' gq see it only in the demand");
    assertEquals(3, published.gpusWanted());
    assertEquals(1, published.nextNeed(), "the reserved job comes first in queue order");
    assertEquals(1, published.gpusHeld());
  }

  @Test
  void theDemandsNextNeedIsTheFirstJobInQueueOrderThatCouldStartNow() {
    Ledger q = Ledger.empty();
    JobSpec two = new JobSpec(List.of("t"), "/", Map.of(), 2, null, null, null, List.of(), 0, null, 0);
    JobSpec threeFirst = new JobSpec(List.of("t"), "/", Map.of(), 3, null, null, null, List.of(), 0, null, 5);
    q = q.apply(new LedgerEvent.JobSubmitted(1, two, "t1", "/l/1", null, now.minusSeconds(30)));
    q = q.apply(new LedgerEvent.JobSubmitted(2, threeFirst, "t2", "/l/2", null, now.minusSeconds(20)));
    q = q.apply(new LedgerEvent.JobSubmitted(3, spec(1), "t3", "/l/3", null, now.minusSeconds(10)));
    FairPlan.Own own = FairPlan.own(q, now);
    assertEquals(3, own.jobsWaiting());
    assertEquals(6, own.gpusWanted());
    assertEquals(3, own.nextNeed(), "job 2 goes first: its priority is higher");
    assertEquals(now.minusSeconds(20), own.oldestWait());
    FairPlan.Own held = FairPlan.own(q.apply(new LedgerEvent.JobsHeld(List.of(2L), true, now)), now);
    assertEquals(2, held.nextNeed(), "a held job is no demand: job 1 is next");
    assertEquals(2, held.jobsWaiting());
  }
}

package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.recovery.RecoveryFacts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Drives the Scheduler's real decision function through random submits, launches, deferred and
 * failed launches, exits, cancels, orphans, GPU readings and outside processes (some of which the
 * user adopts as jobs), and checks after
 * every event of every write that no GPU is held by two live jobs, that nothing is ever reserved on
 * a GPU an outside process used in the reading in hand, and that a GPU freed by a job is reserved
 * again only on a reading taken after it was freed.
 */
class SchedulingInvariantTest {
  static final int GPUS = 4;
  static final long OUTSIDER = 90_000;

  /** One run's world: the ledger, the Scheduler's state, the outside processes, the moments. */
  private static final class World {
    final Random rnd;
    Ledger l = Ledger.empty();
    SchedulerState s = SchedulerState.initial();
    final Set<Integer> outsiders = new HashSet<>();
    Set<Integer> outsidersRead = Set.of();
    long nanos = 1;
    long readNanos = Long.MIN_VALUE;
    final Map<String, Long> freedAt = new HashMap<>();
    int reserved;
    int keptPlaced;
    int adopted;

    World(Random rnd) {
      this.rnd = rnd;
    }
  }

  @Test
  void noGpuIsEverHeldTwiceReservedUnderAnOutsideProcessOrHandedOnBeforeAReadingSince() {
    Random rnd = new Random(7);
    int reserved = 0, kept = 0, adopted = 0;
    for (int run = 0; run < 200; run++) {
      World w = new World(rnd);
      decide(w, new Request.Reconciled(Map.of(), 0), w.nanos++);
      for (int step = 0; step < 80; step++) step(w);
      reserved += w.reserved;
      kept += w.keptPlaced;
      adopted += w.adopted;
    }
    assertTrue(reserved > 1000, "the workload places jobs: " + reserved);
    assertTrue(kept > 5, "GPUs a preemption kept for a job were placed: " + kept);
    assertTrue(adopted > 100, "the workload adopts outside processes: " + adopted);
  }

  private static void step(World w) {
    Random rnd = w.rnd;
    switch (rnd.nextInt(12)) {
      case 0, 1 -> decide(w, new Request.Submit(spec(rnd.nextInt(GPUS + 1))), w.nanos++);
      case 2 -> toggle(w.outsiders, rnd.nextInt(GPUS));
      case 3 -> pick(w, JobState.STARTING).ifPresent(j -> decide(w, new Request.Launched(j.id(), leader(100 * j.id())), w.nanos++));
      case 4 -> pick(w, null).ifPresent(j -> end(w, j));
      case 5 -> decide(w, new Request.Cancel(List.of(1L + rnd.nextInt((int) w.l.nextId()))), w.nanos++);
      case 6, 8 -> pick(w, JobState.RUNNING).ifPresent(j -> {
        Long forJob = pick(w, JobState.WAITING).map(Job::id).orElse(null);
        decide(w, new Request.Preempt(new Preemptions.PreemptAsk(List.of(j.id()), 15, false, Duration.ofMinutes(1),
            rnd.nextBoolean() ? forJob : null, rnd.nextBoolean())), w.nanos++);
      });
      case 7 -> adoptOutsider(w);
      default -> observe(w);
    }
  }

  /** What a reconciler finds of a running job whose GPUs are all gone from a good reading. */
  private static RecoveryFacts gpusGone() {
    return new RecoveryFacts(BOOT, java.util.Optional.empty(), true, java.util.Optional.empty(), java.util.Set.of());
  }

  private static void end(World w, Job j) {
    long id = j.id();
    Request<?> r = switch (j.state()) {
      case STARTING -> w.rnd.nextBoolean() ? new Request.LaunchDeferred(id, new LaunchProblem(LaunchProblem.Cause.LEASE_TAKEN, "lease taken"))
          : new Request.LaunchFailed(id, new LaunchProblem(LaunchProblem.Cause.LAUNCH_REFUSED, "f"));
      case RUNNING -> w.rnd.nextInt(4) == 0
          ? new Request.Reconciled(Map.of(id, gpusGone()), 0)
          : new Request.Ended(id, EndSeen.exited(j.adopted() ? null : w.rnd.nextInt(3)), w.nanos++, null, 0);
      case CANCELLING, ORPHANED, PREEMPTING -> new Request.Ended(id, EndSeen.exited(0), w.nanos++, null, 0);
      default -> null;
    };
    if (r != null) decide(w, r, w.nanos++);
  }

  /**
   * The user adopts the outside process on a GPU the reading in hand showed it on: refused while it
   * is already an adopted job's, or while its GPU is reserved.
   */
  private static void adoptOutsider(World w) {
    if (w.outsidersRead.isEmpty()) return;
    List<Integer> on = List.copyOf(w.outsidersRead);
    long pid = OUTSIDER + on.get(w.rnd.nextInt(on.size()));
    var info = new dev.gq.core.proc.ProcInfo(pid, 1, pid, pid, 1, 'S', "python");
    var c = new dev.gq.core.adopt.Candidate(pid, info, 1000, 1000, List.of("python"), "/", null, T0, BOOT, null,
        outsider(pid).lineage(), List.of());
    decide(w, new Request.Adopt(new dev.gq.core.adopt.Adoption.AdoptAsk(c, null, null, null)), w.nanos++);
  }

  /** An outside process: no job's session, group or tag; its own lineage, so that it can be adopted. */
  private static ProcessFacts outsider(long pid) {
    return new ProcessFacts(pid, pid, pid, null, List.of(new dev.gq.core.proc.ProcessRef(pid, 1)));
  }

  /** A reading of the GPUs now: each reserved job's processes on its GPUs, and the outsiders. */
  private static void observe(World w) {
    Map<Long, ProcessFacts> facts = new HashMap<>();
    List<DeviceReading> devices = new ArrayList<>();
    Map<String, Job> held = w.l.reservations();
    for (int i = 0; i < GPUS; i++) {
      List<Long> pids = new ArrayList<>();
      Job holder = held.get(uuid(i));
      if (holder != null && holder.identity() != null && !holder.adopted()) {
        long pid = holder.id() * 100 + i;
        pids.add(pid);
        facts.put(pid, inJob(pid, holder.id()));
      }
      if (w.outsiders.contains(i)) {
        pids.add(OUTSIDER + i);
        facts.put(OUTSIDER + i, outsider(OUTSIDER + i));
      }
      devices.add(device(i, pids.stream().mapToLong(Long::longValue).toArray()));
    }
    long taken = w.nanos++;
    var obs = new GpuObservation(new GpuReading(T0, devices, null), facts);
    w.outsidersRead = Set.copyOf(w.outsiders);
    w.readNanos = taken;
    decide(w, new Request.Observed(obs, "fake", true, taken), w.nanos++);
  }

  private static void decide(World w, Request<?> r, long nanos) {
    var c = new DecisionContext(T0, nanos, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT, Duration.ofMinutes(5), 64);
    Decided<?> d = Decider.decide(w.l, w.s, r, c);
    long freedNanos = r instanceof Request.Ended e ? e.endedNanos() : nanos;
    for (LedgerEvent e : d.events()) {
      Map<String, Job> before = w.l.reservations();
      if (e instanceof JobReserved res) {
        w.reserved++;
        for (GpuSlot g : res.gpus()) {
          Long keptFor = w.l.settings().keptFor().get(g.uuid());
          if (keptFor != null && w.l.blocked().get(keptFor) == null) {
            assertEquals(keptFor, res.jobId(), g + " was kept for job " + keptFor + " by a preemption");
            w.keptPlaced++;
          }
          assertFalse(w.outsidersRead.contains(g.index()), "reserved under an outside process: " + g);
          Long freed = w.freedAt.get(g.uuid());
          assertTrue(freed == null || w.readNanos - freed > 0, g + " handed on before a reading taken since it was freed");
        }
      }
      if (e instanceof JobAdopted a) {
        w.adopted++;
        for (GpuSlot g : a.gpus())
          assertTrue(w.outsidersRead.contains(g.index()) && !before.containsKey(g.uuid()), "adopted onto " + g);
      }
      w.l = w.l.apply(e);
      assertNoGpuHeldTwice(w.l);
      Map<String, Job> after = w.l.reservations();
      for (String uuid : before.keySet()) if (!after.containsKey(uuid)) w.freedAt.put(uuid, freedNanos);
    }
    w.s = d.next();
  }

  private static void assertNoGpuHeldTwice(Ledger l) {
    Set<String> seen = new HashSet<>();
    for (Job j : l.live().values()) {
      if (!j.state().holdsGpus()) {
        assertTrue(j.gpus().isEmpty() || j.state() != JobState.WAITING, "a waiting job holds no GPU");
        continue;
      }
      assertEquals(j.spec().gpus(), j.gpus().size(), "all or nothing");
      for (GpuSlot s : j.gpus()) assertTrue(seen.add(s.uuid()), s.uuid() + " held by two live jobs");
    }
    assertEquals(seen.size(), l.reservations().size());
  }

  private static java.util.Optional<Job> pick(World w, JobState state) {
    List<Job> js = w.l.live().values().stream().filter(j -> state == null ? j.state().active() : j.state() == state).toList();
    return js.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(js.get(w.rnd.nextInt(js.size())));
  }

  private static void toggle(Set<Integer> s, int i) {
    if (!s.remove(i)) s.add(i);
  }
}

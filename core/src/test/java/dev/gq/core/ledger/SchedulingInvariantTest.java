package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.Allocator;
import dev.gq.core.alloc.GpuClassifier;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.Plan;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Drives the pure pieces the way the Scheduler does (classify the latest reading against the
 * reservations, plan, persist one JobReserved per placement) through random submits, launches,
 * exits, cancels, requeues, orphans and outside processes, and checks after every event that no GPU
 * is held by two live jobs and that nothing is ever reserved on a GPU an outside process uses.
 */
class SchedulingInvariantTest {
  static final int GPUS = 4;
  static final long OUTSIDER = 90_000;

  @Test
  void noGpuIsEverHeldTwiceOrReservedUnderAnOutsideProcess() {
    Random rnd = new Random(7);
    for (int run = 0; run < 200; run++) {
      Ledger l = Ledger.empty();
      Set<Integer> outsiders = new HashSet<>();
      for (int step = 0; step < 60; step++) l = step(l, outsiders, rnd);
    }
  }

  private static Ledger step(Ledger l, Set<Integer> outsiders, Random rnd) {
    switch (rnd.nextInt(8)) {
      case 0, 1 -> {
        var d = LedgerTest.submit(l, spec(rnd.nextInt(GPUS + 1)));
        l = apply(l, d.events());
      }
      case 2 -> toggle(outsiders, rnd.nextInt(GPUS));
      case 3 -> l = apply(l, pick(l, JobState.STARTING, rnd, j -> new JobLaunched(j.id(), leader(100 * j.id()), T0)));
      case 4 -> l = apply(l, pick(l, null, rnd, j -> ending(j, rnd)));
      case 5 -> l = apply(l, l.cancel(List.of(1L + rnd.nextInt((int) l.nextId())), T0));
      default -> l = schedule(l, outsiders);
    }
    return l;
  }

  private static LedgerEvent ending(Job j, Random rnd) {
    return switch (j.state()) {
      case STARTING -> rnd.nextBoolean() ? new JobRequeued(j.id(), "r", T0) : new JobLaunchFailed(j.id(), "f", T0);
      case RUNNING -> rnd.nextInt(4) == 0 ? new JobOrphaned(j.id(), "o", T0) : new JobExited(j.id(), rnd.nextInt(3), null, T0);
      case CANCELLING, ORPHANED -> new JobExited(j.id(), 0, null, T0);
      default -> null;
    };
  }

  private static Ledger schedule(Ledger l, Set<Integer> outsiders) {
    Map<Long, ProcessFacts> facts = new HashMap<>();
    List<DeviceReading> devices = new ArrayList<>();
    Map<String, Job> held = l.reservations();
    for (int i = 0; i < GPUS; i++) {
      List<Long> pids = new ArrayList<>();
      Job holder = held.get(uuid(i));
      if (holder != null && holder.identity() != null) {
        long pid = holder.id() * 100 + i;
        pids.add(pid);
        facts.put(pid, inJob(pid, holder.id()));
      }
      if (outsiders.contains(i)) {
        pids.add(OUTSIDER + i);
        facts.put(OUTSIDER + i, stranger(OUTSIDER + i));
      }
      devices.add(device(i, pids.stream().mapToLong(Long::longValue).toArray()));
    }
    var obs = new GpuObservation(new GpuReading(T0, devices, null), facts);
    List<GpuStatus> gpus = GpuClassifier.classify(obs, List.of(), held, l.live().values());
    Plan plan = Allocator.plan(l.waiting(), gpus, Map.of());
    List<LedgerEvent> events = new ArrayList<>();
    for (Plan.Placement p : plan.placements()) {
      for (GpuSlot s : p.gpus()) assertFalse(outsiders.contains(s.index()), "reserved under an outside process: " + s);
      events.add(new JobReserved(p.jobId(), p.gpus(), T0));
    }
    return apply(l, events);
  }

  private static Ledger apply(Ledger l, List<LedgerEvent> events) {
    for (LedgerEvent e : events) {
      l = l.apply(e);
      assertNoGpuHeldTwice(l);
    }
    return l;
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

  private static List<LedgerEvent> pick(Ledger l, JobState state, Random rnd, java.util.function.Function<Job, LedgerEvent> f) {
    List<Job> js = l.live().values().stream().filter(j -> state == null ? j.state().active() : j.state() == state).toList();
    if (js.isEmpty()) return List.of();
    LedgerEvent e = f.apply(js.get(rnd.nextInt(js.size())));
    return e == null ? List.of() : List.of(e);
  }

  private static void toggle(Set<Integer> s, int i) {
    if (!s.remove(i)) s.add(i);
  }
}

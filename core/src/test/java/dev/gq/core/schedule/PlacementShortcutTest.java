package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.PlanRules;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.FailFastGate;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A write or a reading makes no plan when it could place nothing ({@link Reservations#nothingToPlace}):
 * with a long queue the plan's reasons for every waiting job are most of its work. The shortcut is
 * taken only when the plan would indeed reserve nothing.
 */
class PlacementShortcutTest {
  private static final int GPUS = 3;

  private static Ledger with(Ledger l, LedgerEvent... events) {
    for (LedgerEvent e : events) l = l.apply(e);
    return l;
  }

  private static JobSubmitted submitted(long id, int gpus, String group) {
    JobSpec s = spec(gpus);
    s = new JobSpec(s.argv(), s.cwd(), s.env(), gpus, null, group, null);
    return new JobSubmitted(id, s, tag(id), "/logs/" + id + ".log", null, T0);
  }

  /** The plan's reservations, as a write would make them (the allocator within fail-fast, the CPU-only bound). */
  private static int planned(Ledger l, List<GpuStatus> gpus, int maxCpuJobs) {
    long cpuActive = l.live().values().stream().filter(j -> j.state().active() && j.spec().gpus() == 0).count();
    var rules = new PlanRules(T0, Duration.ofMinutes(5), (int) Math.max(0, maxCpuJobs - cpuActive), Map.of(), Map.of());
    return FailFastGate.plan(l, gpus, FailFast.DEFAULT, Set.of(), rules).reservations().size();
  }

  @Test
  void aHeldQueueOrBusyGpusPlaceNothingAndAFreeGpuOrCpuRoomMayPlace() {
    Ledger l = with(Ledger.empty(), submitted(1, 1, null), submitted(2, 0, null));
    List<GpuStatus> busy = List.of(gpu(0, GpuState.RUNNING), gpu(1, GpuState.EXTERNAL));
    List<GpuStatus> oneFree = List.of(gpu(0, GpuState.RUNNING), free(1));
    assertTrue(Reservations.nothingToPlace(with(l, new QueuePaused(T0)), oneFree, 64), "the held queue");
    assertTrue(Reservations.nothingToPlace(l, busy, 0), "GPUs busy and no room for a CPU-only job");
    assertFalse(Reservations.nothingToPlace(l, busy, 64), "the CPU-only job may start");
    assertFalse(Reservations.nothingToPlace(l, oneFree, 0), "the 1-GPU job may start");
    assertTrue(Reservations.nothingToPlace(with(l, new JobsHeld(List.of(1L, 2L), true, T0)), oneFree, 64), "both held");
    assertTrue(Reservations.nothingToPlace(l, null, 0), "no reading yet");
  }

  @Test
  void theShortcutIsTakenOnlyWhereThePlanReservesNothing() {
    Random rnd = new Random(11);
    int taken = 0, planned = 0;
    GpuState[] states = {GpuState.FREE, GpuState.RUNNING, GpuState.RESERVED, GpuState.EXTERNAL, GpuState.UNKNOWN, GpuState.DRAINED};
    for (int run = 0; run < 3000; run++) {
      Ledger l = Ledger.empty();
      int jobs = rnd.nextInt(6);
      for (long id = 1; id <= jobs; id++) {
        l = with(l, submitted(id, rnd.nextInt(3), rnd.nextBoolean() ? "g" : null));
        if (l.live().get(id).spec().gpus() == 0 && rnd.nextInt(3) == 0) l = with(l, new JobReserved(id, List.of(), T0));
        if (rnd.nextInt(5) == 0) l = with(l, new JobsHeld(List.of(id), true, T0));
      }
      if (rnd.nextInt(6) == 0) l = with(l, new GroupHeld("g", "held", false, T0));
      if (rnd.nextInt(8) == 0) l = with(l, new QueuePaused(T0));
      List<GpuStatus> gpus = null;
      if (rnd.nextInt(10) > 0) {
        gpus = new ArrayList<>();
        for (int i = 0; i < GPUS; i++) gpus.add(gpu(i, states[rnd.nextInt(states.length)]));
      }
      int maxCpu = rnd.nextInt(3);
      if (Reservations.nothingToPlace(l, gpus, maxCpu)) {
        taken++;
        assertEquals(0, planned(l, gpus, maxCpu), "shortcut taken where the plan places: " + l + " on " + gpus);
      } else if (planned(l, gpus, maxCpu) > 0) planned++;
    }
    assertTrue(taken > 500 && planned > 500, "both kinds of situation came up: " + taken + " shortcuts, " + planned + " plans");
  }
}

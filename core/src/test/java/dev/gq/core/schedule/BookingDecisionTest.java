package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.Booking;
import dev.gq.core.fair.FairView;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Another user's booking as the Decider applies it: it keeps its GPUs only from jobs that could run into it, only shortly before. */
class BookingDecisionTest {
  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private final Instant now = T0;
  private FairView fair = FairView.NONE;

  private void decide(Request<?> r) {
    Decided<?> d = Decider.decide(l, s, r, new DecisionContext(now, 1, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64, 1024, DecisionContext.IDLE_AFTER, fair));
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
  }

  private void machine(int n, Map<String, Object> policy, Booking... bookings) {
    PolicyReading p = policy == null ? PolicyReading.ABSENT : new PolicyReading(Policy.from(policy, "/etc/gq/policy.toml"), null);
    fair = new FairView(p, List.of(), Map.of(), Map.of(), List.of(bookings), ZoneOffset.UTC);
    decide(new Request.Reconciled(Map.of(), 0));
    List<DeviceReading> devices = new ArrayList<>();
    Map<String, GpuLease> leases = new HashMap<>();
    for (int i = 0; i < n; i++) {
      devices.add(device(i));
      leases.put(uuid(i), GpuLease.FREE);
    }
    decide(new Request.Observed(new GpuObservation(new GpuReading(now, devices, null), Map.of(), leases, ALICE), "fake", true, 1));
  }

  private static Booking bob(Duration ahead, int... gpus) {
    List<String> uuids = java.util.Arrays.stream(gpus).mapToObj(dev.gq.core.Fixtures::uuid).toList();
    return new Booking("b0b0b0b0", "bob", 1002, uuids, T0.plus(ahead), T0.plus(ahead).plus(Duration.ofHours(3)), T0);
  }

  private long reserved() {
    return l.live().values().stream().filter(j -> j.state().holdsGpus()).count();
  }

  @Test
  void aBookingHoursOrDaysAheadKeepsNoJobWithoutTimeOffItsGpusToday() {
    machine(4, null, bob(Duration.ofMinutes(630), 0, 1, 2));
    for (int i = 0; i < 4; i++) decide(new Request.Submit(spec(1)));
    assertEquals(4, reserved(), "10.5 h ahead: every free GPU takes a job");
  }

  @Test
  void withTheLongestTimeOnSharedAJobStartsOnlyOutsideTheNotice() {
    machine(1, Map.of("max_time_on_shared", "1d"), bob(Duration.ofHours(10), 0));
    decide(new Request.Submit(spec(1)));
    assertEquals(1, reserved(), "10 h ahead, outside the notice: the job (at most 1d) starts; the booker has the GPU by 1d - 2h after the start at the latest");
  }

  @Test
  void withinTheNoticeAJobThatCouldRunIntoTheWindowWaitsAndOneThatEndsByItStarts() {
    machine(1, Map.of("booking_notice", "4h"), bob(Duration.ofHours(3), 0));
    decide(new Request.Submit(spec(1)));
    assertEquals(0, reserved(), "no --time, 3 h before a window with a 4 h notice");
    decide(new Request.Submit(spec(1).withTimeLimit(Duration.ofHours(2))));
    assertEquals(1, reserved(), "2 h ends before the window");
  }
}
